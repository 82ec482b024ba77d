package dev.homing.router.kvevents;

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
 * Test helper: {@code kv_publisher.py} run by Debian's {@code /usr/bin/python3} (with python3-zmq and python3-msgpack),
 * spoken to in JSON lines. Every command is answered by one line; {@link #call} sends one and waits for the line that
 * answers it, keeping the others ({@link #seen()}). A missing module fails the test naming the Debian packages.
 */
final class PythonPublisher implements AutoCloseable {

    private static final String PYTHON = "/usr/bin/python3";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration ANSWER = Duration.ofSeconds(40);

    private final Process process;
    private final OutputStream stdin;
    private final LinkedBlockingQueue<JsonNode> lines = new LinkedBlockingQueue<>();
    private final StringBuilder stderr = new StringBuilder();
    private final List<JsonNode> seen = new ArrayList<>();

    private PythonPublisher(Process process) {
        this.process = process;
        this.stdin = process.getOutputStream();
        Thread.ofPlatform().daemon().name("python-stdout").start(() -> pump(process.getInputStream()));
        Thread.ofPlatform().daemon().name("python-stderr").start(() -> drain(process.getErrorStream()));
    }

    /** Starts the script with its seed (block hashes) and a lifetime it will not outlive. */
    static PythonPublisher start(Path dir, long seed, Duration lifetime) throws IOException {
        Path script = dir.resolve("kv_publisher.py");
        try (InputStream in = PythonPublisher.class.getResourceAsStream("kv_publisher.py")) {
            Files.copy(in, script);
        }
        if (!Files.isExecutable(Path.of(PYTHON))) {
            throw new AssertionError("Debian's " + PYTHON + " is missing: apt-get install python3 python3-zmq "
                    + "python3-msgpack");
        }
        Process p = new ProcessBuilder(PYTHON, script.toString(), Long.toString(seed),
                Long.toString(lifetime.toSeconds())).start();
        PythonPublisher py = new PythonPublisher(p);
        py.await(n -> n.has("ready"), ANSWER);
        return py;
    }

    /** Sends a command and returns the line that has {@code answerField}. */
    JsonNode call(Map<String, ?> command, String answerField) {
        send(command);
        return await(n -> n.has(answerField), ANSWER);
    }

    void send(Object command) {
        try {
            stdin.write(JSON.writeValueAsBytes(command));
            stdin.write('\n');
            stdin.flush();
        } catch (IOException e) {
            throw new AssertionError("the Python publisher stopped reading:\n" + stderr(), e);
        }
    }

    /** The next line matching {@code match}, skipping (but keeping in {@link #seen()}) the others. */
    JsonNode await(Predicate<JsonNode> match, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                JsonNode n = left <= 0 ? lines.poll() : lines.poll(left, TimeUnit.NANOSECONDS);
                if (n == null) {
                    throw new AssertionError("no answer from the Python publisher within " + timeout
                            + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")")
                            + "\nstderr:\n" + stderr());
                }
                if (n.has("error")) {
                    throw new AssertionError(n.get("error").asText() + "\nstderr:\n" + stderr());
                }
                synchronized (seen) {
                    seen.add(n);
                }
                if (match.test(n)) {
                    return n;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Every line taken so far, in order. */
    List<JsonNode> seen() {
        synchronized (seen) {
            return List.copyOf(seen);
        }
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
        if (process.exitValue() != 0) {
            throw new AssertionError("the Python publisher exited with " + process.exitValue() + "; stderr:\n"
                    + stderr());
        }
    }
}
