package dev.homing.bench.dataplane;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * One keep-alive HTTP/1.1 connection of the load generator: writes a request already in bytes and reads the whole
 * response (its head for the status and framing; a Content-Length or chunked body skipped through one buffer). As
 * little work as a client can do, so that the server, not the client, is measured.
 */
final class LoadConnection implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final ResponseInput response = new ResponseInput(32 * 1024);

    LoadConnection(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(address, 5_000);
        socket.setSoTimeout(30_000);
        response.attach(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Sends {@code request} and reads its response to the end; the response's status. */
    int exchange(byte[] request) throws IOException {
        out.write(request);
        out.flush();
        int code = response.status();
        ResponseFraming framing = response.framing();
        if (!framing.chunked() && framing.length() < 0 && code >= 200 && code != 204 && code != 304) {
            throw new IOException("a response without a length: the generator keeps connections open");
        }
        if (response.body(code, framing, null)) {
            throw new IOException("the server closed the connection");
        }
        return code;
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
