package dev.homing.bench.dataplane;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Debian nginx process on loopback, in a directory of its own (config, pid, logs, temp files), in the foreground of
 * a child process so that it dies with the run: either a "pod" that answers a completion, {@code /v1/models} and
 * vLLM's {@code /metrics} from memory ({@code return 200}), or a proxy to such a pod with a keep-alive upstream, as
 * users put nginx in front of vLLM.
 */
public final class Nginx implements AutoCloseable {

    /** Where Debian installs it. */
    public static final Path BINARY = Path.of("/usr/sbin/nginx");

    private final Process process;
    private final int port;
    private final Path dir;

    private Nginx(Path dir, String http, int port) throws IOException {
        this.dir = dir;
        this.port = port;
        Files.createDirectories(dir.resolve("tmp"));
        String conf = (isRoot() ? "user root;\n" : "") + "worker_processes auto;\n"
                + "pid " + dir.resolve("nginx.pid") + ";\n"
                + "error_log " + dir.resolve("error.log") + " warn;\n"
                + "events { worker_connections 8192; }\n"
                + "http {\n"
                + "  access_log off;\n"
                + "  keepalive_requests 1000000;\n"
                + "  client_body_temp_path " + dir.resolve("tmp") + ";\n"
                + "  proxy_temp_path " + dir.resolve("tmp") + ";\n"
                + "  fastcgi_temp_path " + dir.resolve("tmp") + ";\n"
                + "  uwsgi_temp_path " + dir.resolve("tmp") + ";\n"
                + "  scgi_temp_path " + dir.resolve("tmp") + ";\n"
                + http
                + "}\n";
        Path file = dir.resolve("nginx.conf");
        Files.writeString(file, conf, StandardCharsets.UTF_8);
        if (!Files.isExecutable(BINARY)) {
            throw new IOException("nginx is not installed at " + BINARY + " (Debian: apt-get install nginx)");
        }
        process = new ProcessBuilder(List.of(BINARY.toString(), "-p", dir.toString(), "-c", file.toString(),
                "-g", "daemon off;")).redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile())
                .start();
        awaitPort();
    }

    /** A pod answering {@code completion} to every POST, {@code models} to /v1/models, {@code metrics} to /metrics. */
    public static Nginx pod(Path dir, int port, String completion, String models, String metrics)
            throws IOException {
        return new Nginx(dir, "  server {\n"
                + "    listen 127.0.0.1:" + port + ";\n"
                + "    location = /v1/models { default_type application/json; return 200 '" + quote(models) + "'; }\n"
                + "    location = /metrics { default_type text/plain; return 200 '" + quote(metrics) + "'; }\n"
                + "    location / { default_type application/json; return 200 '" + quote(completion) + "'; }\n"
                + "  }\n", port);
    }

    /** A proxy to {@code upstream} ({@code host:port}) with idle upstream connections kept, as nginx is deployed. */
    public static Nginx proxy(Path dir, int port, String upstream) throws IOException {
        return new Nginx(dir, "  upstream pods { server " + upstream + "; keepalive 128; }\n"
                + "  server {\n"
                + "    listen 127.0.0.1:" + port + ";\n"
                + "    location / {\n"
                + "      proxy_pass http://pods;\n"
                + "      proxy_http_version 1.1;\n"
                + "      proxy_set_header Connection \"\";\n"
                + "    }\n"
                + "  }\n", port);
    }

    public int port() {
        return port;
    }

    private static String quote(String s) {
        return s.replace("\\", "\\\\").replace("'", "\\'");
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private void awaitPort() throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("nginx exited at start: " + log());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException e) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted waiting for nginx", ie);
                }
            }
        }
        close();
        throw new IOException("nginx did not listen on 127.0.0.1:" + port + " within 10 s: " + log());
    }

    private String log() {
        try {
            return Files.readString(dir.resolve("stdout.log")) + Files.readString(dir.resolve("error.log"));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
