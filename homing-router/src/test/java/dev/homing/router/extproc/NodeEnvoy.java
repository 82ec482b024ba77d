package dev.homing.router.extproc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.protocol.fixtures.JsonLinesProcess;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Test helper: starts {@code envoy_ext_proc.js}, Envoy's ext_proc filter played by Node's {@code @grpc/grpc-js} with
 * Envoy's own {@code .proto} files loaded by {@code @grpc/proto-loader}, spoken to in JSON lines
 * ({@link JsonLinesProcess}): its plan as the first line on stdin; every wait is bounded. The npm packages come from
 * the cache {@code .ci/ensure-test-tools} fills ({@code $HOMING_NODE_DIR}, by default {@code ~/.cache/homing/node}; a
 * relative one is taken from the repository's root, where {@code ./homing test} runs); nothing is downloaded here.
 * A missing {@code node}, one older than {@value #NODE_MIN}, or packages missing or not those the lock pins, fail the
 * test loudly.
 */
final class NodeEnvoy implements AutoCloseable {

    static final String SCRIPT = "envoy_ext_proc.js";
    /** The oldest Node.js whose {@code @grpc/grpc-js} the lock pins runs on. */
    static final int NODE_MIN = 18;
    private static final String LOCK = ".ci/node/package-lock.json";
    private static final Pattern VERSION = Pattern.compile("v(\\d+)\\.");

    private final JsonLinesProcess script;

    private NodeEnvoy(JsonLinesProcess script) {
        this.script = script;
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
        Path script = JsonLinesProcess.copyResource(NodeEnvoy.class, SCRIPT, dir);
        Path modules = modules();
        NodeEnvoy n = new NodeEnvoy(JsonLinesProcess.start(SCRIPT, List.of(node().toString(), script.toString(),
                "127.0.0.1", Integer.toString(port), tls ? "tls" : "plaintext", protos.toString()), env -> {
                    env.put("NODE_PATH", modules.toString());
                    env.remove("NODE_OPTIONS");
                }, null));
        n.send(plan);
        return n;
    }

    /** Writes one line to the script's stdin: the plan, or the line that resumes a paused exchange. */
    void send(Object line) {
        script.send(line);
    }

    /** The next line that has {@code field}; a line with {@code error}, the script's exit, or a timeout fail. */
    JsonNode await(String field, Duration timeout) {
        return script.await(n -> n.has(field), timeout).get(field);
    }

    /**
     * {@code node} on the PATH, as {@code .ci/ensure-test-tools} finds it,
     * checked to be Node.js >= {@value #NODE_MIN}.
     */
    static Path node() {
        return node(System.getenv().getOrDefault("PATH", ""));
    }

    /** {@code node} on {@code path}, a PATH's value. */
    static Path node(String path) {
        Path node = Arrays.stream(path.split(File.pathSeparator)).filter(s -> !s.isEmpty())
                .map(s -> Path.of(s, "node")).filter(Files::isExecutable).findFirst()
                .orElseThrow(() -> new AssertionError("node is not on the PATH (" + path + "): NodeEnvoyIT needs "
                        + "Node.js >= " + NODE_MIN + "; ./homing test installs it as root (apt-get install nodejs "
                        + "npm)"));
        String version = version(node);
        Matcher m = VERSION.matcher(version);
        if (!m.lookingAt() || Integer.parseInt(m.group(1)) < NODE_MIN) {
            throw new AssertionError(node + " is Node.js '" + version + "': NodeEnvoyIT needs Node.js >= " + NODE_MIN
                    + " (the one @grpc/grpc-js of " + LOCK + " runs on); install a newer nodejs");
        }
        return node;
    }

    private static String version(Path node) {
        try {
            Process p = new ProcessBuilder(node.toString(), "--version").redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] out;
            try (InputStream in = p.getInputStream()) {
                out = in.readNBytes(200);
            }
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(node + " --version did not answer within 30 s");
            }
            return new String(out, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new AssertionError(node + " --version failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** The {@code node_modules} {@code .ci/ensure-test-tools} installed, checked against the repo's lock. */
    static Path modules() throws IOException {
        Path dir = nodeDir(System.getenv("HOMING_NODE_DIR"),
                System.getenv().getOrDefault("HOME", System.getProperty("user.home")));
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

    /** Where the npm packages are: {@code configured} ({@code $HOMING_NODE_DIR}; relative: from the repo's root). */
    static Path nodeDir(String configured, String home) {
        if (configured == null || configured.isEmpty()) {
            return Path.of(home, ".cache", "homing", "node");
        }
        return repoLock().getParent().getParent().getParent().resolve(configured);
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

    /** Waits for the script to exit (it does once it printed its summary) and fails the test if it did not cleanly. */
    @Override
    public void close() {
        script.close(); // its stdin closed first: a paused script gives up at once
    }
}
