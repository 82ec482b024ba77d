package dev.homing.router.upstream;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * One keep-alive HTTP/1.1 connection to a pod over a blocking socket. Reads go through one buffer: the response head
 * is parsed out of it, and body bytes already in it are handed on from there; once it is empty, a body read goes
 * straight from the socket into the caller's array, so a body is copied once, into the relay's buffer. Used by one
 * request at a time (the pool hands it out and takes it back).
 */
final class Http1Connection implements AutoCloseable {

    /**
     * The read buffer, 8 KiB, held for the connection's life (thousands of open streams hold thousands). Head lines
     * longer than this, or a head longer than {@link #MAX_HEAD_BYTES}, are refused (nginx's limit on a pod's head is
     * one buffer of 4 or 8 KiB).
     */
    static final int BUFFER = 8 * 1024;
    /** A request whose head and body fit in this goes out in one write. */
    private static final int COALESCE = 16 * 1024;
    static final int MAX_HEAD_BYTES = 64 * 1024;
    private static final int MAX_HEADERS = 256;

    private final String address;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final byte[] buf = new byte[BUFFER];
    private int pos;
    private int limit;
    /** Bytes of responses received on this connection, in total: 0 means the pod never answered on it. */
    private long received;
    private int requests;
    private long idleSince;

    private Http1Connection(String address, Socket socket) throws IOException {
        this.address = address;
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /**
     * Opens a connection to {@code host:port}.
     *
     * @throws UpstreamConnectException when it cannot be opened within {@code connectTimeoutMillis}
     */
    static Http1Connection open(String address, String host, int port, int connectTimeoutMillis)
            throws UpstreamConnectException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(host, port), connectTimeoutMillis);
            return new Http1Connection(address, s);
        } catch (IOException | RuntimeException e) {
            closeQuietly(s);
            String why = e instanceof SocketTimeoutException ? "no connection within " + connectTimeoutMillis + " ms"
                    : String.valueOf(e.getMessage());
            throw new UpstreamConnectException("Could not connect to " + address + ": " + why, e);
        }
    }

    String address() {
        return address;
    }

    /** Requests sent on this connection before the current one: more than 0 means it was taken from the pool. */
    int reused() {
        return requests - 1;
    }

    /** Whether the pod has sent nothing of the current response yet. */
    boolean nothingReceived() {
        return received == 0;
    }

    long idleSince() {
        return idleSince;
    }

    void idleFrom(long nanos) {
        idleSince = nanos;
    }

    /**
     * Sends a request: a head and a small body together in one write (one segment, as a buffered stream would, but
     * with no buffer held for the connection's life: a connection carrying a stream for minutes holds only its read
     * buffer), a large body straight from the caller's array after its head.
     */
    void send(byte[] head, byte[] body) throws IOException {
        requests++;
        received = 0;
        int length = body == null ? 0 : body.length;
        if (length == 0) {
            out.write(head);
        } else if (head.length + length <= COALESCE) {
            byte[] both = new byte[head.length + length];
            System.arraycopy(head, 0, both, 0, head.length);
            System.arraycopy(body, 0, both, head.length, length);
            out.write(both);
        } else {
            out.write(head);
            out.write(body);
        }
    }

    /**
     * Reads the response head, skipping interim 1xx responses.
     *
     * @param timeoutMillis     longest wait for it, 0 for none
     * @param bodyTimeoutMillis longest wait for any of the body's bytes after it, 0 for none
     * @throws ResponseTimeoutException when none came in time
     */
    ResponseHead readHead(String method, int timeoutMillis, int bodyTimeoutMillis) throws IOException {
        socket.setSoTimeout(timeoutMillis);
        try {
            while (true) {
                ResponseHead head = parseHead(method);
                if (head.status() >= 200 || head.status() == 101) {
                    return head;
                }
            }
        } catch (SocketTimeoutException e) {
            throw new ResponseTimeoutException(address + " sent no response within " + timeoutMillis + " ms");
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(bodyTimeoutMillis);
            }
        }
    }

    private ResponseHead parseHead(String method) throws IOException {
        int headBytes = 0;
        String statusLine = readLine();
        headBytes += statusLine.length();
        ResponseHead.Builder b = ResponseHead.parseStatusLine(statusLine, address);
        for (int count = 0; ; count++) {
            String line = readLine();
            headBytes += line.length() + 2;
            if (line.isEmpty()) {
                break;
            }
            if (count >= MAX_HEADERS || headBytes > MAX_HEAD_BYTES) {
                throw new IOException(address + " sent a response head over " + MAX_HEAD_BYTES + " bytes or "
                        + MAX_HEADERS + " headers");
            }
            b.header(line);
        }
        return b.build(method);
    }

    /** One CRLF- (or LF-) terminated line of the head, without its terminator, as ISO-8859-1. */
    String readLine() throws IOException {
        while (true) {
            for (int i = pos; i < limit; i++) {
                if (buf[i] == '\n') {
                    int end = i > pos && buf[i - 1] == '\r' ? i - 1 : i;
                    String line = new String(buf, pos, end - pos, StandardCharsets.ISO_8859_1);
                    pos = i + 1;
                    return line;
                }
            }
            if (pos == 0 && limit == buf.length) {
                throw new IOException(address + " sent a line over " + BUFFER + " bytes");
            }
            if (fill() < 0) {
                throw new EOFException(address + " closed the connection"
                        + (received == 0 ? " without a response" : " in the middle of a response"));
            }
        }
    }

    /**
     * Up to {@code len} body bytes: those left in the buffer first, else straight from the socket. Blocks only until
     * some arrive, so a stream's chunk goes on as soon as it came. -1 at the end of the connection.
     */
    int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (pos < limit) {
            int n = Math.min(len, limit - pos);
            System.arraycopy(buf, pos, b, off, n);
            pos += n;
            return n;
        }
        int n = in.read(b, off, len);
        if (n > 0) {
            received += n;
        }
        return n;
    }

    /** Moves what is left to the front and reads more after it; the bytes read, or -1 at the end. */
    private int fill() throws IOException {
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
        int n = in.read(buf, limit, buf.length - limit);
        if (n > 0) {
            limit += n;
            received += n;
        }
        return n;
    }

    /** Whether bytes the pod sent are still unread: a response nobody asked for leaves a connection unusable. */
    boolean hasBufferedBytes() {
        return pos < limit;
    }

    boolean isOpen() {
        return !socket.isClosed();
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }
}
