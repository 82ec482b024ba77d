package dev.homing.bench.soak;

import dev.homing.bench.dataplane.ResponseFraming;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * One client of the soak: a keep-alive HTTP/1.1 connection to the router (a new one whenever the last was closed or
 * broke) that writes a request and reads its response as it arrives, a stream chunk by chunk, and says how it ended.
 * What counts is whether a byte of the response came: without one the request is lost; with a 2xx begun and not
 * finished (a stream without {@code data: [DONE]}, a body cut short) it was cut.
 */
final class SoakClient implements AutoCloseable {

    private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] ERROR = "\"error\"".getBytes(StandardCharsets.ISO_8859_1);
    /** The end of a response's data kept to judge how it ended: [DONE], or an error event before the end. */
    private static final int TAIL = 512;

    private final InetSocketAddress address;
    private final int readTimeoutMillis;
    private final byte[] buf = new byte[16 * 1024];
    private final byte[] tail = new byte[TAIL];
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private int pos;
    private int limit;
    private int tailLength;
    private boolean received;

    /** @param readTimeoutMillis the longest a read waits for the router's next byte before the request is given up */
    SoakClient(InetSocketAddress address, int readTimeoutMillis) {
        this.address = address;
        this.readTimeoutMillis = readTimeoutMillis;
    }

    /** Sends {@code r} and reads its response to the end, or until it fails; never throws. */
    Outcome exchange(SoakRequest r) {
        long t0 = System.nanoTime();
        boolean kept = socket != null;
        pos = 0;
        limit = 0;
        tailLength = 0;
        received = false;
        if (socket == null) {
            try {
                open();
            } catch (IOException e) {
                close();
                return Outcome.lost(r.stream(), "connect: " + what(e), System.nanoTime() - t0);
            }
        }
        int status = 0;
        try {
            out.write(r.bytes());
            out.flush();
            status = statusLine();
            boolean close = body(status);
            if (close) {
                close();
            }
            long nanos = System.nanoTime() - t0;
            if (status < 200 || status > 299) {
                return Outcome.error(r.stream(), status, nanos);
            }
            if (r.stream() && !endsWith(DONE)) {
                return Outcome.cut(true, status, contains(ERROR) ? "an error event, no [DONE]"
                        : "ended without [DONE]", nanos);
            }
            return Outcome.ok(r.stream(), status, nanos);
        } catch (IOException e) {
            close();
            long nanos = System.nanoTime() - t0;
            if (status == 0) {
                return Outcome.lost(r.stream(), received ? "no status line: " + what(e)
                        : what(e) + " before any byte" + (kept ? " (kept connection)" : ""), nanos);
            }
            if (status < 200 || status > 299) {
                return Outcome.error(r.stream(), status, nanos); // answered, if not to the end
            }
            return Outcome.cut(r.stream(), status, what(e) + " mid-" + (r.stream() ? "stream" : "body"), nanos);
        }
    }

    private void open() throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(address, 5_000);
        socket.setSoTimeout(readTimeoutMillis);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    private int statusLine() throws IOException {
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

    /** Reads the head's framing and the body to its end; whether the connection must be closed after. */
    private boolean body(int status) throws IOException {
        ResponseFraming framing = ResponseFraming.read(this::line);
        long length = framing.length();
        boolean chunked = framing.chunked();
        boolean close = framing.close();
        if (chunked) {
            for (long size = chunkSize(); size > 0; size = chunkSize()) {
                data(size);
                if (!line().isEmpty()) {
                    throw new ProtocolException("a chunk longer than its size");
                }
            }
            while (!line().isEmpty()) {
                // trailers
            }
            return close;
        }
        if (length >= 0) {
            data(length);
            return close;
        }
        if (status == 204 || status == 304) {
            return close;
        }
        while (fill() >= 0) { // no framing: the body runs to the close
            keep(buf, 0, limit);
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

    /** Reads {@code n} bytes of the body as they come, keeping the last of them. */
    private void data(long n) throws IOException {
        while (n > 0) {
            if (pos == limit && fill() < 0) {
                throw new EOFException("closed");
            }
            int k = (int) Math.min(n, limit - pos);
            keep(buf, pos, k);
            pos += k;
            n -= k;
        }
    }

    private void keep(byte[] b, int off, int len) {
        if (len >= TAIL) {
            System.arraycopy(b, off + len - TAIL, tail, 0, TAIL);
            tailLength = TAIL;
            return;
        }
        int drop = Math.max(0, tailLength + len - TAIL);
        if (drop > 0) {
            System.arraycopy(tail, drop, tail, 0, tailLength - drop);
            tailLength -= drop;
        }
        System.arraycopy(b, off, tail, tailLength, len);
        tailLength += len;
    }

    private boolean endsWith(byte[] suffix) {
        return tailLength >= suffix.length
                && Arrays.equals(tail, tailLength - suffix.length, tailLength, suffix, 0, suffix.length);
    }

    private boolean contains(byte[] needle) {
        for (int i = 0; i + needle.length <= tailLength; i++) {
            if (Arrays.equals(tail, i, i + needle.length, needle, 0, needle.length)) {
                return true;
            }
        }
        return false;
    }

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
            if (b.length() > 64 * 1024) {
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

    /** A failure in a few fixed words, so that failures are counted by kind. */
    private static String what(IOException e) {
        String m = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
        if (e instanceof ConnectException) {
            return m.contains("refused") ? "refused" : "not connected";
        }
        if (e instanceof SocketTimeoutException) {
            return "timed out";
        }
        if (e instanceof EOFException) {
            return "closed";
        }
        if (e instanceof ProtocolException) {
            return "malformed (" + e.getMessage() + ")";
        }
        if (e instanceof SocketException) {
            return m.contains("reset") ? "reset" : m.contains("broken pipe") ? "broken pipe" : "socket error";
        }
        return e.getClass().getSimpleName();
    }

    @Override
    public void close() {
        Socket s = socket;
        socket = null;
        in = null;
        out = null;
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // gone already
            }
        }
    }
}
