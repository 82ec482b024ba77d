package dev.homing.router.extproc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Test helper: {@code envoy_ext_proc.js}, Envoy's ext_proc filter played by Node's {@code @grpc/grpc-js} with Envoy's
 * own {@code .proto} files loaded by {@code @grpc/proto-loader}. It gets its plan as one JSON line on stdin and
 * answers in JSON lines; every wait here is bounded. The npm packages come from the cache
 * {@code .ci/ensure-test-tools} fills ({@code $HOMING_NODE_DIR}, by default {@code ~/.cache/homing/node}); nothing is
 * downloaded here. A missing {@code node}, or packages missing or not those the lock pins, fail the test loudly.
 */
final class NodeEnvoy implements AutoCloseable {

    static final String SCRIPT = "envoy_ext_proc.js";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LOCK = ".ci/node/package-lock.json";

    private final Process process;
    private final OutputStream stdin;
    private final LinkedBlockingQueue<JsonNode> lines = new LinkedBlockingQueue<>();
    private final StringBuilder stderr = new StringBuilder();

    private NodeEnvoy(Process process) {
        this.process = process;
        this.stdin = process.getOutputStream();
        Thread.ofPlatform().daemon().name("node-envoy-stdout").start(this::pumpStdout);
        Thread.ofPlatform().daemon().name("node-envoy-stderr").start(this::drainStderr);
    }

    /**
     * Extracts every {@code .proto} file of the jar that holds Envoy's generated ext_proc classes (the
     * {@code io.envoyproxy.controlplane:api} jar on the test classpath, the very version the router is built on) into
     * {@code dir}. {@code google/protobuf}'s well-known types come with protobufjs.
     */
    static Path extractProtos(Path dir) throws IOException {
        Path jar;
        try {
            jar = Path.of(ExternalProcessorGrpc.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        if (!Files.isRegularFile(jar)) {
            throw new AssertionError("Envoy's API classes are not in a jar (" + jar + "): no .proto files to give Node");
        }
        Path root = dir.toAbsolutePath().normalize();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
                ZipEntry entry = e.nextElement();
                if (entry.isDirectory() || !entry.getName().endsWith(".proto")) {
                    continue;
                }
                Path target = root.resolve(entry.getName()).normalize();
                if (!target.startsWith(root)) {
                    throw new IOException("entry outside the directory: " + entry.getName());
                }
                Files.createDirectories(target.getParent());
                try (InputStream in = zip.getInputStream(entry)) {
                    Files.copy(in, target);
                }
            }
        }
        if (!Files.isRegularFile(root.resolve("envoy/service/ext_proc/v3/external_processor.proto"))) {
            throw new AssertionError(jar + " holds no envoy/service/ext_proc/v3/external_processor.proto");
        }
        return root;
    }

    /** Starts the script against the ext_proc port {@code port} of 127.0.0.1 and sends it {@code plan}. */
    static NodeEnvoy start(Path dir, Path protos, int port, boolean tls, Object plan) throws IOException {
        Files.createDirectories(dir);
        Path script = dir.resolve(SCRIPT);
        try (InputStream in = NodeEnvoy.class.getResourceAsStream(SCRIPT)) {
            if (in == null) {
                throw new IllegalStateException("no resource " + SCRIPT + " next to " + NodeEnvoy.class.getName());
            }
            Files.copy(in, script);
        }
        ProcessBuilder pb = new ProcessBuilder(List.of(node().toString(), script.toString(), "127.0.0.1",
                Integer.toString(port), tls ? "tls" : "plaintext", protos.toString()));
        pb.environment().put("NODE_PATH", modules().toString());
        pb.environment().remove("NODE_OPTIONS");
        NodeEnvoy n = new NodeEnvoy(pb.start());
        n.send(plan);
        return n;
    }

    /** Writes one line to the script's stdin: the plan, or the line that resumes a paused exchange. */
    void send(Object line) {
        try {
            stdin.write(JSON.writeValueAsBytes(line));
            stdin.write('\n');
            stdin.flush();
        } catch (IOException e) {
            throw new AssertionError(SCRIPT + " stopped reading:\n" + stderr(), e);
        }
    }

    /** The next line that has {@code field}; a line with {@code error}, the script's exit, or a timeout fail. */
    JsonNode await(String field, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                JsonNode n = left <= 0 ? null : lines.poll(left, TimeUnit.NANOSECONDS);
                if (n == null) {
                    throw new AssertionError("no \"" + field + "\" line from " + SCRIPT + " within " + timeout
                            + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")")
                            + "\nstderr:\n" + stderr());
                }
                if (n.has("error")) {
                    throw new AssertionError(SCRIPT + " failed: " + n.get("error").asText() + "\nstderr:\n" + stderr());
                }
                if (n.has(field)) {
                    return n.get(field);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** {@code node} on the PATH, as {@code .ci/ensure-test-tools} finds it. */
    static Path node() {
        String path = System.getenv().getOrDefault("PATH", "");
        return Arrays.stream(path.split(File.pathSeparator)).filter(s -> !s.isEmpty())
                .map(s -> Path.of(s, "node")).filter(Files::isExecutable).findFirst()
                .orElseThrow(() -> new AssertionError("node is not on the PATH (" + path + "): NodeEnvoyIT needs "
                        + "Node.js >= 18; ./homing test installs it as root (apt-get install nodejs npm)"));
    }

    /** The {@code node_modules} {@code .ci/ensure-test-tools} installed, checked against the repo's lock. */
    static Path modules() throws IOException {
        String configured = System.getenv("HOMING_NODE_DIR");
        String home = System.getenv().getOrDefault("HOME", System.getProperty("user.home"));
        Path dir = configured != null && !configured.isEmpty() ? Path.of(configured)
                : Path.of(home, ".cache", "homing", "node");
        Path lock = repoLock();
        Path installed = dir.resolve(".installed");
        if (!Files.isDirectory(dir.resolve("node_modules/@grpc/grpc-js"))
                || !Files.isDirectory(dir.resolve("node_modules/@grpc/proto-loader"))
                || !Files.isRegularFile(installed) || Files.mismatch(installed, lock) != -1) {
            throw new AssertionError("the npm packages of " + LOCK + " are not installed in " + dir
                    + " (or are another lock's): run .ci/ensure-test-tools (./homing test does)");
        }
        return dir.resolve("node_modules");
    }

    private static Path repoLock() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path lock = p.resolve(LOCK);
            if (Files.isRegularFile(lock)) {
                return lock;
            }
        }
        throw new AssertionError("no " + LOCK + " above " + Path.of("").toAbsolutePath());
    }

    synchronized String stderr() {
        return stderr.toString();
    }

    private void pumpStdout() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                try {
                    lines.add(JSON.readTree(line));
                } catch (IOException e) {
                    lines.add(JSON.createObjectNode().put("error", "not a JSON line: " + line));
                }
            }
        } catch (IOException e) {
            // the process ended; await() reports it
        }
    }

    private void drainStderr() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                synchronized (this) {
                    stderr.append(line).append('\n');
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    /** Waits for the script to exit (it does once it printed its summary) and fails the test if it did not cleanly. */
    @Override
    public void close() {
        try {
            stdin.close(); // a paused script gives up at once
        } catch (IOException e) {
            // already gone
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError(SCRIPT + " did not exit; stderr:\n" + stderr());
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return;
        }
        if (process.exitValue() != 0) {
            throw new AssertionError(SCRIPT + " exited with " + process.exitValue() + "; stderr:\n" + stderr());
        }
    }
}
