package dev.homing.router.upstream;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A response's status line and headers, and what they say of the body's framing (RFC 9112 §6.3): none for HEAD, 1xx,
 * 204 and 304; chunked when {@code Transfer-Encoding} ends in chunked; else {@code Content-Length} bytes; else up to
 * the connection's close. Header names keep the pod's spelling; {@link #headers} groups repeated ones in order.
 *
 * @param contentLength the body's length; -1 when chunked or delimited by the close
 * @param keepAlive     whether the connection may carry another request after this response
 */
record ResponseHead(int status, Map<String, List<String>> headers, Framing framing, long contentLength,
                    boolean keepAlive) {

    enum Framing { NONE, FIXED, CHUNKED, UNTIL_CLOSE }

    /** The first value of a header, matched without regard to case; null when absent. */
    String first(String name) {
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue().getFirst();
            }
        }
        return null;
    }

    static Builder parseStatusLine(String line, String address) throws IOException {
        // HTTP/1.1 200 OK
        if (!line.startsWith("HTTP/1.") || line.length() < 12 || line.charAt(8) != ' ') {
            throw new IOException(address + " sent no HTTP/1.x status line: " + abbreviate(line));
        }
        int status;
        try {
            status = Integer.parseInt(line, 9, 12, 10);
        } catch (NumberFormatException e) {
            throw new IOException(address + " sent a malformed status line: " + abbreviate(line));
        }
        if (status < 100 || status > 999 || (line.length() > 12 && line.charAt(12) != ' ')) {
            throw new IOException(address + " sent a malformed status line: " + abbreviate(line));
        }
        return new Builder(status, line.charAt(7) == '0', address);
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }

    static final class Builder {
        private final int status;
        private final boolean http10;
        private final String address;
        private final Map<String, List<String>> headers = new LinkedHashMap<>();
        private long contentLength = -1;
        private boolean chunked;
        private boolean transferEncoding;
        private String connection;

        private Builder(int status, boolean http10, String address) {
            this.status = status;
            this.http10 = http10;
            this.address = address;
        }

        void header(String line) throws IOException {
            int colon = line.indexOf(':');
            if (colon <= 0 || line.charAt(colon - 1) == ' ' || line.charAt(0) == ' ' || line.charAt(0) == '\t') {
                throw new IOException(address + " sent a malformed header line: " + abbreviate(line));
            }
            String name = line.substring(0, colon);
            String value = line.substring(colon + 1).strip();
            String lower = name.toLowerCase(Locale.ROOT);
            switch (lower) {
                case "content-length" -> {
                    long n;
                    try {
                        n = Long.parseLong(value);
                    } catch (NumberFormatException e) {
                        n = -2;
                    }
                    if (n < 0 || (contentLength >= 0 && contentLength != n)) {
                        throw new IOException(address + " sent an invalid Content-Length: " + abbreviate(value));
                    }
                    contentLength = n;
                }
                case "transfer-encoding" -> {
                    transferEncoding = true;
                    String last = value.substring(value.lastIndexOf(',') + 1).strip();
                    chunked = last.equalsIgnoreCase("chunked");
                }
                case "connection" -> connection = connection == null ? value : connection + "," + value;
                default -> {
                }
            }
            headers.computeIfAbsent(name, k -> new ArrayList<>(1)).add(value);
        }

        ResponseHead build(String method) {
            boolean close = has(connection, "close");
            boolean keepAlive = http10 ? has(connection, "keep-alive") && !close : !close;
            Framing framing;
            if ("HEAD".equals(method) || status < 200 || status == 204 || status == 304) {
                framing = Framing.NONE;
            } else if (chunked) {
                framing = Framing.CHUNKED;
            } else if (transferEncoding) {
                framing = Framing.UNTIL_CLOSE; // a coding other than chunked last: the close delimits the body
            } else if (contentLength >= 0) {
                framing = Framing.FIXED;
            } else {
                framing = Framing.UNTIL_CLOSE;
            }
            long length = framing == Framing.FIXED ? contentLength : framing == Framing.NONE ? 0 : -1;
            // Not reused: a connection switched to another protocol, or one whose framing was ambiguous (both
            // Transfer-Encoding and Content-Length: RFC 9112 §6.3 reads it as chunked and closes, against smuggling).
            boolean reusable = keepAlive && framing != Framing.UNTIL_CLOSE && status != 101
                    && !(transferEncoding && contentLength >= 0);
            return new ResponseHead(status, Collections.unmodifiableMap(headers), framing, length, reusable);
        }

        private static boolean has(String tokens, String token) {
            if (tokens == null) {
                return false;
            }
            for (String t : tokens.split(",")) {
                if (t.strip().equalsIgnoreCase(token)) {
                    return true;
                }
            }
            return false;
        }
    }
}
