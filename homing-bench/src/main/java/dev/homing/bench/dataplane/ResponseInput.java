package dev.homing.bench.dataplane;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;

/**
 * The load generators' reader of HTTP/1.1 responses on one connection, through one buffer: the status line, the
 * framing ({@link ResponseFraming}), and the body as framed (a length, chunks, or to the close), each piece of it handed
 * to a {@link Sink} or skipped. Kept apart from the router's HTTP code, which it measures, and small, so that the
 * client costs little beside the server.
 */
public final class ResponseInput {

    /** Takes the body's bytes as they are read; they are valid only during the call. */
    @FunctionalInterface
    public interface Sink {
        void accept(byte[] bytes, int offset, int length);
    }

    private static final int MAX_LINE = 64 * 1024;

    private final byte[] buf;
    private InputStream in;
    private int pos;
    private int limit;
    private boolean received;

    public ResponseInput(int bufferSize) {
        this.buf = new byte[bufferSize];
    }

    /** Reads from {@code in} from now on (a new connection), with nothing buffered. */
    public void attach(InputStream in) {
        this.in = in;
        pos = 0;
        limit = 0;
        received = false;
    }

    /** A new exchange begins: whether a byte of it has come is counted afresh. */
    public void nextExchange() {
        received = false;
    }

    /** Whether a byte came since {@link #nextExchange}. */
    public boolean received() {
        return received;
    }

    /** The status line's code. */
    public int status() throws IOException {
        String line = line();
        if (!line.startsWith("HTTP/1.") || line.length() < 12) {
            throw new ProtocolException("not an HTTP/1.x status line");
        }
        try {
            return Integer.parseInt(line, 9, 12, 10);
        } catch (NumberFormatException e) {
            throw new ProtocolException("not an HTTP/1.x status line");
        }
    }

    /** The header lines, up to the empty one, read for their framing. */
    public ResponseFraming framing() throws IOException {
        return ResponseFraming.read(this::line);
    }

    /**
     * Reads the body as {@code framing} says, each piece to {@code sink} (null to skip it).
     *
     * @return whether the connection closes after it (a body that runs to the close, or {@code Connection: close})
     */
    public boolean body(int status, ResponseFraming framing, Sink sink) throws IOException {
        if (framing.chunked()) {
            for (long size = chunkSize(); size > 0; size = chunkSize()) {
                data(size, sink);
                if (!line().isEmpty()) {
                    throw new ProtocolException("a chunk longer than its size");
                }
            }
            while (!line().isEmpty()) {
                // trailers
            }
            return framing.close();
        }
        if (framing.length() >= 0) {
            data(framing.length(), sink);
            return framing.close();
        }
        if (status == 204 || status == 304 || status < 200) {
            return framing.close();
        }
        while (fill() >= 0) { // no framing: the body runs to the close
            if (sink != null) {
                sink.accept(buf, 0, limit);
            }
        }
        return true;
    }

    private long chunkSize() throws IOException {
        String size = line();
        int semi = size.indexOf(';');
        try {
            return Long.parseLong((semi < 0 ? size : size.substring(0, semi)).strip(), 16);
        } catch (NumberFormatException e) {
            throw new ProtocolException("a bad chunk size");
        }
    }

    private void data(long n, Sink sink) throws IOException {
        while (n > 0) {
            if (pos == limit && fill() < 0) {
                throw new EOFException("closed");
            }
            int k = (int) Math.min(n, limit - pos);
            if (sink != null) {
                sink.accept(buf, pos, k);
            }
            pos += k;
            n -= k;
        }
    }

    /** One line, without its CRLF (or bare LF), joined across reads when it spans two. */
    private String line() throws IOException {
        StringBuilder b = null;
        while (true) {
            for (int i = pos; i < limit; i++) {
                if (buf[i] == '\n') {
                    int end = i > pos && buf[i - 1] == '\r' ? i - 1 : i;
                    String s = new String(buf, pos, end - pos, StandardCharsets.ISO_8859_1);
                    pos = i + 1;
                    if (b == null) {
                        return s;
                    }
                    String joined = b.append(s).toString(); // a line split across two reads
                    return joined.endsWith("\r") ? joined.substring(0, joined.length() - 1) : joined;
                }
            }
            if (b == null) {
                b = new StringBuilder();
            }
            b.append(new String(buf, pos, limit - pos, StandardCharsets.ISO_8859_1));
            if (b.length() > MAX_LINE) {
                throw new ProtocolException("a line longer than 64 KiB");
            }
            if (fill() < 0) {
                throw new EOFException("closed");
            }
        }
    }

    private int fill() throws IOException {
        pos = 0;
        limit = 0;
        int n = in.read(buf);
        if (n > 0) {
            limit = n;
            received = true;
        }
        return n;
    }
}
