package dev.homing.protocol.openai;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Finds a small text field of a {@code multipart/form-data} body in place (RFC 7578): the body's parts are found by
 * their boundary, only part headers are read, and no part but the one asked for is decoded, so an audio file in the
 * same form costs one pass of byte comparisons.
 */
public final class MultipartFields {

    /** Longest value read: a model name, not a file. */
    static final int MAX_VALUE_BYTES = 1024;
    private static final byte[] HEADER_END = {'\r', '\n', '\r', '\n'};

    private MultipartFields() {
    }

    /**
     * The value of the form field {@code name}, or null when the body has none, the content type names no boundary,
     * or the value is longer than {@value #MAX_VALUE_BYTES} bytes.
     */
    public static String field(byte[] body, String contentType, String name) {
        String boundary = boundary(contentType);
        if (boundary == null) {
            return null;
        }
        byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        byte[] next = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        int at = indexOf(body, delimiter, 0);
        while (at >= 0) {
            int headers = at + delimiter.length;
            if (headers + 1 < body.length && body[headers] == '-' && body[headers + 1] == '-') {
                return null; // the closing delimiter
            }
            int headersEnd = indexOf(body, HEADER_END, headers);
            if (headersEnd < 0) {
                return null;
            }
            int valueStart = headersEnd + HEADER_END.length;
            int valueEnd = indexOf(body, next, valueStart);
            if (valueEnd < 0) {
                return null;
            }
            if (names(body, headers, headersEnd, name)) {
                int length = valueEnd - valueStart;
                return length > MAX_VALUE_BYTES ? null
                        : new String(body, valueStart, length, StandardCharsets.UTF_8).trim();
            }
            at = valueEnd + 2; // the delimiter after the CRLF that ends this part
        }
        return null;
    }

    /** Whether a part's headers are those of form field {@code name} ({@code Content-Disposition: form-data; name=...}). */
    private static boolean names(byte[] body, int from, int to, String name) {
        String headers = new String(body, from, to - from, StandardCharsets.ISO_8859_1);
        for (String line : headers.split("\r\n")) {
            if (!line.toLowerCase(Locale.ROOT).startsWith("content-disposition:")) {
                continue;
            }
            for (String param : line.substring(line.indexOf(':') + 1).split(";")) {
                String p = param.trim();
                if (p.regionMatches(true, 0, "name=", 0, 5)) {
                    return unquote(p.substring(5)).equals(name);
                }
            }
        }
        return false;
    }

    static String boundary(String contentType) {
        if (contentType == null) {
            return null;
        }
        for (String param : contentType.split(";")) {
            String p = param.trim();
            if (p.regionMatches(true, 0, "boundary=", 0, 9)) {
                String b = unquote(p.substring(9));
                return b.isEmpty() ? null : b;
            }
        }
        return null;
    }

    private static String unquote(String s) {
        String t = s.trim();
        return t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"") ? t.substring(1, t.length() - 1) : t;
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = Math.max(0, from); i + needle.length <= haystack.length; i++) {
            if (haystack[i] != needle[0]) {
                continue;
            }
            for (int j = 1; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
