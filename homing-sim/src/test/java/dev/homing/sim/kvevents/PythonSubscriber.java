package dev.homing.sim.kvevents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Test helper: {@code kv_subscriber.py} run by Debian's {@code /usr/bin/python3} (with python3-zmq, python3-msgpack,
 * python3-cbor2), spoken to in JSON lines. Every line it prints is kept, in order; {@link #await} finds the next that
 * matches, waiting a bounded time. A missing module fails the test with the Debian package names.
 */
final class PythonSubscriber implements AutoCloseable {

    private static final String PYTHON = "/usr/bin/python3";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final OutputStream stdin;
    private final LinkedBlockingQueue<JsonNode> lines = new LinkedBlockingQueue<>();
    private final StringBuilder stderr = new StringBuilder();
    private final List<JsonNode> seen = new ArrayList<>();

    private PythonSubscriber(Process process) {
        this.process = process;
        this.stdin = process.getOutputStream();
        Thread.ofPlatform().daemon().name("python-stdout").start(() -> pump(process.getInputStream()));
        Thread.ofPlatform().daemon().name("python-stderr").start(() -> drain(process.getErrorStream()));
    }

    /**
     * Starts the subscriber. {@code bind}: it binds a SUB on 127.0.0.1 and {@link #port()} says where; otherwise it
     * connects to {@code endpoint}.
     */
    static PythonSubscriber start(Path dir, boolean bind, String endpoint, String topicPrefix) throws IOException {
        Path script = dir.resolve("kv_subscriber.py");
        try (InputStream in = PythonSubscriber.class.getResourceAsStream("kv_subscriber.py")) {
            Files.copy(in, script);
        }
        Process p;
        try {
            p = new ProcessBuilder(PYTHON, script.toString(), bind ? "bind" : "connect",
                    endpoint == null ? "-" : endpoint, topicPrefix).start();
        } catch (IOException e) {
            throw new AssertionError("Debian's " + PYTHON + " is missing (packages python3, python3-zmq, "
                    + "python3-msgpack, python3-cbor2)", e);
        }
        return new PythonSubscriber(p);
    }

    int port() {
        return await(n -> n.has("port"), Duration.ofSeconds(30)).get("port").asInt();
    }

    void awaitReady() {
        await(n -> n.has("ready"), Duration.ofSeconds(30));
    }

    void send(Object command) {
        try {
            stdin.write(JSON.writeValueAsBytes(command));
            stdin.write('\n');
            stdin.flush();
        } catch (IOException e) {
            throw new AssertionError("the Python subscriber stopped reading:\n" + stderr(), e);
        }
    }

    /** The next line matching {@code match}, skipping (but keeping in {@link #seen()}) the others. */
    JsonNode await(Predicate<JsonNode> match, Duration timeout) {
        JsonNode n = poll(match, timeout);
        if (n == null) {
            throw new AssertionError("no matching line from the Python subscriber within " + timeout
                    + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")") + "\nstderr:\n"
                    + stderr());
        }
        return n;
    }

    /** Like {@link #await} but null on timeout. */
    JsonNode poll(Predicate<JsonNode> match, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                JsonNode n = left <= 0 ? lines.poll() : lines.poll(left, TimeUnit.NANOSECONDS);
                if (n == null) {
                    return null;
                }
                if (n.has("error")) {
                    throw new AssertionError(n.get("error").asText());
                }
                seen.add(n);
                if (match.test(n)) {
                    return n;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Every line taken from the queue so far, in order. */
    List<JsonNode> seen() {
        return seen;
    }

    synchronized String stderr() {
        return stderr.toString();
    }

    private void pump(InputStream out) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                lines.add(JSON.readTree(line));
            }
        } catch (IOException e) {
            // the process ended; await() reports it
        }
    }

    private void drain(InputStream err) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(err, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                synchronized (this) {
                    stderr.append(line).append('\n');
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                send(Map.of("cmd", "quit"));
            } catch (AssertionError ignored) {
                // already gone
            }
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                return;
            }
        }
        assertThat(process.exitValue()).as("python subscriber exit status; stderr:\n%s", stderr()).isZero();
    }
}
