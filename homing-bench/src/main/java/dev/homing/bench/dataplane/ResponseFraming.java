package dev.homing.bench.dataplane;

import java.io.IOException;
import java.util.Locale;

/**
 * How an HTTP/1.1 response's body is framed, read from its header lines (after the status line, up to the empty
 * line): a length, chunks, or to the close; and whether the connection closes after it. The load generators read
 * responses themselves, apart from the router's code they measure.
 *
 * @param length  the declared Content-Length, or -1
 * @param chunked whether the body comes in chunks
 * @param close   whether the server closes the connection after this response
 */
public record ResponseFraming(long length, boolean chunked, boolean close) {

    /** Where the header lines come from, one at a time, without their CRLF. */
    @FunctionalInterface
    public interface Lines {
        String line() throws IOException;
    }

    /** Reads the header lines up to and including the empty line that ends them. */
    public static ResponseFraming read(Lines lines) throws IOException {
        long length = -1;
        boolean chunked = false;
        boolean close = false;
        for (String h = lines.line(); !h.isEmpty(); h = lines.line()) {
            int colon = h.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = h.substring(0, colon).strip();
            String value = h.substring(colon + 1).strip();
            if (name.equalsIgnoreCase("content-length")) {
                length = Long.parseLong(value);
            } else if (name.equalsIgnoreCase("transfer-encoding")) {
                chunked = value.toLowerCase(Locale.ROOT).endsWith("chunked");
            } else if (name.equalsIgnoreCase("connection")) {
                close = value.equalsIgnoreCase("close");
            }
        }
        return new ResponseFraming(length, chunked, close);
    }
}
