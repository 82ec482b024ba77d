package dev.homing.router.http;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/** Reads a request body once into one array, refusing bodies over a limit before reading them whole. */
public final class BodyReader {

    /** The body is larger than allowed. */
    public static final class TooLargeException extends IOException {
        TooLargeException(long limit) {
            super("request body over " + limit + " bytes");
        }
    }

    private BodyReader() {
    }

    /**
     * @param declaredLength Content-Length when the client sent one, else -1
     * @return the body; its array is exactly the body's length
     */
    public static byte[] read(InputStream in, long declaredLength, int limit) throws IOException {
        if (declaredLength > limit) {
            throw new TooLargeException(limit);
        }
        byte[] buf = new byte[declaredLength >= 0 ? (int) declaredLength : Math.min(8192, limit)];
        int n = 0;
        while (true) {
            if (n == buf.length) {
                if (declaredLength >= 0) {
                    if (in.read() < 0) {
                        return buf; // exactly as declared
                    }
                    throw new IOException("request body longer than its Content-Length");
                }
                if (buf.length >= limit) {
                    if (in.read() < 0) {
                        return buf;
                    }
                    throw new TooLargeException(limit);
                }
                buf = Arrays.copyOf(buf, (int) Math.min(limit, (long) buf.length * 2));
            }
            int r = in.read(buf, n, buf.length - n);
            if (r < 0) {
                if (declaredLength >= 0) {
                    throw new IOException("request body shorter than its Content-Length");
                }
                return n == buf.length ? buf : Arrays.copyOf(buf, n);
            }
            n += r;
        }
    }
}
