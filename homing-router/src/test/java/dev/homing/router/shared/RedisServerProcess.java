package dev.homing.router.shared;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} (Debian's) on a free port of 127.0.0.1, with no persistence, for integration tests. It
 * can be killed and started again on the same port, as an outage. A missing binary fails the test, naming the package.
 */
final class RedisServerProcess implements AutoCloseable {

    static final Path BINARY = Path.of("/usr/bin/redis-server");

    private final int port;
    private final Path log;
    private Process process;

    private RedisServerProcess(int port, Path log) {
        this.port = port;
        this.log = log;
    }

    static RedisServerProcess start() {
        if (!Files.isExecutable(BINARY)) {
            throw new AssertionError(BINARY + " is missing: these tests need a real Redis; install Debian's "
                    + "redis-server package (apt-get install redis-server)");
        }
        try {
            RedisServerProcess r = new RedisServerProcess(freePort(), Files.createTempFile("homing-redis", ".log"));
            r.restart();
            return r;
        } catch (IOException e) {
            throw new AssertionError("cannot start " + BINARY + ": " + e.getMessage(), e);
        }
    }

    int port() {
        return port;
    }

    String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** Starts the server (again, empty) on its port and waits until it answers. */
    void restart() {
        try {
            process = new ProcessBuilder(List.of(BINARY.toString(), "--port", Integer.toString(port),
                    "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new AssertionError("cannot start " + BINARY + ": " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!answers()) {
            if (!process.isAlive() || System.nanoTime() - deadline > 0) {
                throw new AssertionError("redis-server did not come up on port " + port + "; its log:\n" + logText());
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /** Kills the server at once (SIGKILL), as a crash: nothing is saved, clients see their connections reset. */
    void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                throw new AssertionError("redis-server did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Whether a PING on a fresh connection gets PONG. */
    boolean answers() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            s.setSoTimeout(500);
            OutputStream out = s.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] reply = new byte[7];
            int n = in.readNBytes(reply, 0, reply.length);
            return new String(reply, 0, n, StandardCharsets.US_ASCII).startsWith("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    private String logText() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            Files.deleteIfExists(log);
        } catch (IOException e) {
            // a temp file; the OS cleans it
        }
    }
}
