package dev.homing.router.upstream;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * A response body as its head frames it, read off the connection as it arrives: a read returns what has come (of a
 * chunked body, at most the rest of the current chunk, so each SSE event a pod writes as a chunk goes on alone). Read
 * to its end, the connection goes back to the pool; closed before its end, the connection is closed, which tells
 * the pod to abort the request (vLLM stops generating for a client that went away).
 */
final class BodyStream extends InputStream {

    /** Trailer lines after the last chunk are read and dropped, at most this many. */
    private static final int MAX_TRAILERS = 64;

    private final Http1Connection conn;
    private final ResponseHead.Framing framing;
    private final boolean reusable;
    private final ConnectionPool pool;
    /** FIXED: body bytes left; CHUNKED: bytes left in the current chunk. */
    private long remaining;
    private boolean chunkStarted;
    private boolean done;
    private boolean closed;

    BodyStream(Http1Connection conn, ResponseHead head, ConnectionPool pool) {
        this.conn = conn;
        this.framing = head.framing();
        this.reusable = head.keepAlive();
        this.pool = pool;
        this.remaining = framing == ResponseHead.Framing.FIXED ? head.contentLength() : 0;
        if (framing == ResponseHead.Framing.NONE
                || (framing == ResponseHead.Framing.FIXED && head.contentLength() == 0)) {
            finish();
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException("the response body was closed");
        }
        if (done) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        try {
            return switch (framing) {
                case FIXED -> readFixed(b, off, len);
                case CHUNKED -> readChunked(b, off, len);
                case UNTIL_CLOSE -> readToClose(b, off, len);
                case NONE -> -1;
            };
        } catch (IOException | RuntimeException e) {
            abort();
            throw e;
        }
    }

    private int readFixed(byte[] b, int off, int len) throws IOException {
        int n = conn.read(b, off, (int) Math.min(len, remaining));
        if (n < 0) {
            throw new EOFException(conn.address() + " closed the connection with " + remaining
                    + " bytes of the body unsent");
        }
        remaining -= n;
        if (remaining == 0) {
            finish();
        }
        return n;
    }

    private int readChunked(byte[] b, int off, int len) throws IOException {
        if (remaining == 0) {
            if (chunkStarted) {
                expectEmptyLine("after a chunk");
            }
            chunkStarted = true;
            long size = chunkSize(conn.readLine());
            if (size == 0) {
                for (int i = 0; !conn.readLine().isEmpty(); i++) {
                    if (i >= MAX_TRAILERS) {
                        throw new IOException(conn.address() + " sent over " + MAX_TRAILERS + " trailer lines");
                    }
                }
                finish();
                return -1;
            }
            remaining = size;
        }
        int n = conn.read(b, off, (int) Math.min(len, remaining));
        if (n < 0) {
            throw new EOFException(conn.address() + " closed the connection in the middle of a chunk");
        }
        remaining -= n;
        return n;
    }

    private int readToClose(byte[] b, int off, int len) throws IOException {
        int n = conn.read(b, off, len);
        if (n < 0) {
            finish();
        }
        return n;
    }

    private void expectEmptyLine(String where) throws IOException {
        if (!conn.readLine().isEmpty()) {
            throw new IOException(conn.address() + " sent no CRLF " + where);
        }
    }

    private long chunkSize(String line) throws IOException {
        int end = line.indexOf(';'); // chunk extensions are ignored
        String hex = (end < 0 ? line : line.substring(0, end)).strip();
        if (hex.isEmpty() || hex.length() > 15) {
            throw new IOException(conn.address() + " sent a malformed chunk size: " + hex);
        }
        try {
            return Long.parseLong(hex, 16);
        } catch (NumberFormatException e) {
            throw new IOException(conn.address() + " sent a malformed chunk size: " + hex);
        }
    }

    /** The body was read to its end: the connection serves the next request if it may. */
    private void finish() {
        done = true;
        if (reusable && !conn.hasBufferedBytes()) {
            pool.release(conn);
        } else {
            conn.close();
        }
    }

    private void abort() {
        done = true;
        conn.close();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!done) {
            abort();
        }
    }
}
