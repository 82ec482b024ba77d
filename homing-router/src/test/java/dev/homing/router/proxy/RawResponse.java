package dev.homing.router.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 response as read off a raw socket, exactly as it came: a 1xx is a response of its own, not skipped, so
 * a test sees an interim answer the router should not have sent. The body is framed by Content-Length, chunks, or the
 * connection's end.
 *
 * @param headers names lower-cased; a repeated field's values joined by {@code ", "}
 */
record RawResponse(int status, Map<String, String> headers, byte[] body) {

    /** The connection ended (or was reset) before the response's first byte. */
    static final class ClosedBeforeAResponse extends IOException {
        ClosedBeforeAResponse(String how) {
            super(how);
        }
    }

    /**
     * Reads the next response.
     *
     * @throws ClosedBeforeAResponse when the connection ends before its first byte
     * @throws java.net.SocketTimeoutException when the socket's read timeout passes first
     */
    static RawResponse read(InputStream in) throws IOException {
        int first;
        try {
            first = in.read();
        } catch (SocketException e) { // a reset: the router closed with our bytes unread
            throw new ClosedBeforeAResponse("reset (" + e.getMessage() + ")");
        }
        if (first < 0) {
            throw new ClosedBeforeAResponse("closed");
        }
        String statusLine = (char) first + line(in);
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP/1.x status line: " + statusLine);
        }
        int status = Integer.parseInt(parts[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String l; !(l = line(in)).isEmpty(); ) {
            int colon = l.indexOf(':');
            headers.merge(l.substring(0, colon).strip().toLowerCase(Locale.ROOT), l.substring(colon + 1).strip(),
                    (a, b) -> a + ", " + b);
        }
        if (status < 200 || status == 204 || status == 304) {
            return new RawResponse(status, headers, new byte[0]);
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (headers.getOrDefault("transfer-encoding", "").toLowerCase(Locale.ROOT).contains("chunked")) {
            for (int size; (size = Integer.parseInt(line(in).split(";")[0].strip(), 16)) > 0; ) {
                body.writeBytes(exactly(in, size));
                line(in);
            }
            while (!line(in).isEmpty()) {
                // trailer fields: none expected, none kept
            }
        } else if (headers.containsKey("content-length")) {
            body.writeBytes(exactly(in, Integer.parseInt(headers.get("content-length"))));
        } else {
            body.writeBytes(in.readAllBytes());
        }
        return new RawResponse(status, headers, body.toByteArray());
    }

    String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        String text = bodyText();
        return status + " " + headers + " " + (text.length() > 300 ? text.substring(0, 300) + "..." : text);
    }

    private static byte[] exactly(InputStream in, int n) throws IOException {
        byte[] b = in.readNBytes(n);
        if (b.length < n) {
            throw new IOException("the response ended after " + b.length + " of " + n + " body bytes");
        }
        return b;
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c; (c = in.read()) != '\n'; ) {
            if (c < 0) {
                throw new IOException("the connection ended mid-response after: " + b);
            }
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return b.toString();
    }
}
