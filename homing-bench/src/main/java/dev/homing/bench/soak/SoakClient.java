package dev.homing.bench.soak;

import dev.homing.bench.dataplane.ResponseInput;
import java.io.EOFException;
import java.io.IOException;
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
    private final ResponseInput response = new ResponseInput(16 * 1024);
    private final byte[] tail = new byte[TAIL];
    private Socket socket;
    private OutputStream out;
    private int tailLength;

    /** @param readTimeoutMillis the longest a read waits for the router's next byte before the request is given up */
    SoakClient(InetSocketAddress address, int readTimeoutMillis) {
        this.address = address;
        this.readTimeoutMillis = readTimeoutMillis;
    }

    /** Sends {@code r} and reads its response to the end, or until it fails; never throws. */
    Outcome exchange(SoakRequest r) {
        long t0 = System.nanoTime();
        boolean kept = socket != null;
        tailLength = 0;
        response.nextExchange();
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
            status = response.status();
            boolean close = response.body(status, response.framing(), this::keep);
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
                return Outcome.lost(r.stream(), response.received() ? "no status line: " + what(e)
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
        response.attach(socket.getInputStream());
        out = socket.getOutputStream();
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
