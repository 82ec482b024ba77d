package dev.homing.cli;

import dev.homing.bench.dataplane.LoadGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
        List<String> jvmArgs = options.jvmArgs;
        Path jar = options.jar;
        Files.createDirectories(dir);
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        if (Runtime.version().feature() >= 23) {
            cmd.add("--sun-misc-unsafe-memory-access=allow");
        }
        if (jfr != null) {
            cmd.add("-XX:StartFlightRecording=filename=" + jfr.toAbsolutePath() + ",settings=profile");
        }
        cmd.addAll(jvmArgs);
        cmd.addAll(jar != null ? List.of("-jar", jar.toString(), "serve")
                : List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "serve"));
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

    /**
     * CPU time the process has used, user and system, in nanoseconds, from {@code /proc/PID/stat} (Linux; its clock
     * ticks are 1/100 s there); -1 where that cannot be read.
     */
    long cpuNanos() {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L; // utime, stime
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * Bytes of heap in use in Homing's process after a full collection (jcmd {@code GC.run}, then
     * {@code GC.heap_info}): what it holds, not what it has yet to collect.
     */
    long heapUsedAfterGc() throws IOException, InterruptedException {
        jcmd("GC.run");
        jcmd("GC.run"); // a second pass for what the first only made unreachable (finalizers, soft references)
        String info = jcmd("GC.heap_info");
        Matcher m = USED.matcher(info);
        if (!m.find()) {
            throw new IOException("no heap use in jcmd GC.heap_info: " + info);
        }
        return Long.parseLong(m.group(1)) * 1024;
    }

    private static final Pattern USED = Pattern.compile("used (\\d+)K");

    private String jcmd(String command) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), command)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("jcmd " + command + " failed: " + out);
        }
        return out;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy(); // SIGTERM: the JFR recording is written on the way out
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
