package dev.homing.cli;

import dev.homing.bench.dataplane.LoadGenerator;
import dev.homing.bench.dataplane.ProcessProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code homing serve} in a JVM of its own, as users run it, so the load generator's JVM does not share its GC. */
final class HomingProcess implements AutoCloseable {
    private final Process process;
    private final Path log;

    private HomingProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** @param options which build of Homing, its config and JVM options */
    static HomingProcess start(Path dir, int port, int adminPort, String endpoints, Path jfr,
                               HomingProcessOptions options) throws IOException {
        Files.createDirectories(dir);
        List<String> jvmArgs = new ArrayList<>();
        if (jfr != null) {
            jvmArgs.add("-XX:StartFlightRecording=filename=" + jfr.toAbsolutePath() + ",settings=profile");
        }
        jvmArgs.addAll(options.jvmArgs);
        List<String> cmd = command(options.jar, jvmArgs, "serve");
        cmd.addAll(List.of(
                "--endpoints", endpoints, "--host", "127.0.0.1", "--port", String.valueOf(port),
                "--admin-host", "127.0.0.1", "--admin-port", String.valueOf(adminPort)));
        if (options.config != null) {
            cmd.addAll(List.of("--config", options.config.toAbsolutePath().toString()));
        }
        Path log = dir.resolve("homing.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new HomingProcess(p, log);
    }

    /**
     * The command line of a {@code homing SUBCOMMAND} JVM of its own, before the subcommand's options: this JVM's
     * java with the flags {@code ./homing} gives it, then {@code jvmArgs}, then the runnable {@code jar}, or this
     * JVM's own class path when null.
     */
    static List<String> command(Path jar, List<String> jvmArgs, String subcommand) {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        if (Runtime.version().feature() >= 23) {
            cmd.add("--sun-misc-unsafe-memory-access=allow");
        }
        cmd.addAll(jvmArgs);
        cmd.addAll(jar != null ? List.of("-jar", jar.toString(), subcommand)
                : List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), subcommand));
        return cmd;
    }

    /** Homing's process, for sampling it from outside. */
    ProcessProbe probe() {
        return new ProcessProbe(process.pid());
    }

    /** The log its output goes to. */
    Path log() {
        return log;
    }

    /** Whether the process is still running. */
    boolean alive() {
        return process.isAlive();
    }

    /** Waits until a request through Homing is answered 200 (its scraper has seen the pod's model). */
    void awaitServing(LoadGenerator g) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("homing serve exited: " + Files.readString(log));
            }
            if (g.closedLoop(1, Duration.ofMillis(100)).ok() > 0) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IOException("homing serve answered no request within 60 s: " + Files.readString(log));
    }

    /** CPU time the process has used, user and system, in nanoseconds; -1 where that cannot be read. */
    long cpuNanos() {
        return probe().cpuNanos();
    }

    /** Bytes of heap Homing's process uses after a full collection: what it holds, not what it has yet to collect. */
    long heapUsedAfterGc() throws IOException, InterruptedException {
        return probe().heapUsedAfterGc();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy(); // SIGTERM: the JFR recording is written on the way out
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
