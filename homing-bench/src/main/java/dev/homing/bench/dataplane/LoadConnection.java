package dev.homing.bench.dataplane;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One keep-alive HTTP/1.1 connection of the load generator: writes a request already in bytes and reads the whole
 * response (its head for the status and framing; a Content-Length or chunked body skipped through one buffer). As
 * little work as a client can do, so that the server, not the client, is measured.
 */
final class LoadConnection implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final byte[] buf = new byte[32 * 1024];
    private int pos;
    private int limit;

    LoadConnection(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(address, 5_000);
        socket.setSoTimeout(30_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** Sends {@code request} and reads its response to the end; the response's status. */
    int exchange(byte[] request) throws IOException {
        out.write(request);
        out.flush();
        String status = line();
        if (!status.startsWith("HTTP/1.") || status.length() < 12) {
            throw new IOException("not an HTTP/1.x response: " + status);
        }
        int code = Integer.parseInt(status, 9, 12, 10);
        ResponseFraming framing = ResponseFraming.read(this::line);
        long length = framing.length();
        boolean chunked = framing.chunked();
        boolean close = framing.close();
        if (chunked) {
            for (long size = chunk(); size > 0; size = chunk()) {
                skip(size);
                line();
            }
            while (!line().isEmpty()) {
                // trailers
            }
        } else if (length >= 0) {
            skip(length);
        } else if (code >= 200 && code != 204 && code != 304) {
            throw new IOException("a response without a length: the generator keeps connections open");
        }
        if (close) {
            throw new IOException("the server closed the connection");
        }
        return code;
    }

    private long chunk() throws IOException {
        String size = line();
        int semi = size.indexOf(';');
        return Long.parseLong((semi < 0 ? size : size.substring(0, semi)).strip(), 16);
    }

    private void skip(long n) throws IOException {
        while (n > 0) {
            if (pos == limit && fill() < 0) {
                throw new EOFException("the body ended early");
            }
            int k = (int) Math.min(n, limit - pos);
            pos += k;
            n -= k;
        }
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
            pos = limit;
            if (fill() < 0) {
                throw new EOFException("the server closed the connection");
            }
        }
    }

    private int fill() throws IOException {
        pos = 0;
        limit = 0;
        int n = in.read(buf);
        if (n > 0) {
            limit = n;
        }
        return n;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // gone already
        }
    }
}
