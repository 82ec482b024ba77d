package dev.homing.cli;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One simulated vLLM pod, {@code homing sim}, in a JVM of its own, so that it can be killed as a pod dies (SIGKILL:
 * no shutdown of its own, the kernel closes its sockets, a stream mid-way included) and started again on its port.
 * Its output is appended to one log across restarts.
 */
final class PodProcess implements AutoCloseable {

    /** A pod is a stand-in for vLLM: small, and quick to start again (C1 only), so that the router has the CPU. */
    private static final List<String> JVM_ARGS = List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private final String name;
    private final int port;
    private final String model;
    private final long seed;
    private final Path log;
    private Process process;

    private PodProcess(String name, int port, String model, long seed, Path log) {
        this.name = name;
        this.port = port;
        this.model = model;
        this.seed = seed;
        this.log = log;
    }

    /** Starts the pod; {@link #awaitServing} waits for it. */
    static PodProcess start(Path dir, String name, int port, String model, long seed) throws IOException {
        Files.createDirectories(dir);
        PodProcess p = new PodProcess(name, port, model, seed, dir.resolve(name + ".log"));
        p.launch();
        return p;
    }

    private void launch() throws IOException {
        List<String> cmd = HomingProcess.command(null, JVM_ARGS, "sim");
        cmd.addAll(List.of("--model", model, "--host", "127.0.0.1", "--port", Integer.toString(port), "--pod-name",
                name, "--seed", Long.toString(seed)));
        process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(Redirect.appendTo(log.toFile()))
                .start();
    }

    String name() {
        return name;
    }

    int port() {
        return port;
    }

    Path log() {
        return log;
    }

    /** Waits until its {@code /health} answers 200, at most {@code timeout}. */
    void awaitServing(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                .timeout(Duration.ofSeconds(2)).build();
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new IOException("pod " + name + " exited: " + tail());
                }
                try {
                    if (client.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        return;
                    }
                } catch (IOException e) {
                    // not listening yet
                }
                Thread.sleep(100);
            }
        }
        throw new IOException("pod " + name + " did not serve within " + timeout.toSeconds() + " s: " + tail());
    }

    /** SIGKILL, as a pod dies: returns once the process is gone. */
    void kill() throws IOException, InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IOException("pod " + name + " did not die within 30 s of SIGKILL");
        }
        Files.writeString(log, "--- killed (SIGKILL) ---\n", java.nio.file.StandardOpenOption.APPEND);
    }

    /** Starts it again on the same port, and waits until it serves. */
    void restart() throws IOException, InterruptedException {
        if (process.isAlive()) {
            throw new IllegalStateException("pod " + name + " is still running");
        }
        launch();
        awaitServing(Duration.ofSeconds(60));
    }

    private String tail() throws IOException {
        String all = Files.exists(log) ? Files.readString(log) : "";
        return all.length() <= 2000 ? all : all.substring(all.length() - 2000);
    }

    @Override
    public void close() throws InterruptedException {
        if (process == null) {
            return;
        }
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
