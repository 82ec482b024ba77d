package dev.homing.bench.dataplane;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What another JVM on this machine holds, read from outside it as an operator would: its heap after a full
 * collection (jcmd), and from Linux's {@code /proc} its threads, open file descriptors, resident memory and CPU time.
 * The benchmarks measure Homing's own process with it, never the JVM that drives the load.
 */
public final class ProcessProbe {

    private static final Pattern USED = Pattern.compile("used (\\d+)K");
    private static final Pattern THREADS = Pattern.compile("(?m)^Threads:\\s+(\\d+)");
    private static final Pattern RSS = Pattern.compile("(?m)^VmRSS:\\s+(\\d+) kB");

    private final long pid;

    public ProcessProbe(long pid) {
        this.pid = pid;
    }

    public long pid() {
        return pid;
    }

    /**
     * Bytes of heap in use after a full collection (jcmd {@code GC.run} twice, then {@code GC.heap_info}): what the
     * process holds, not what it has yet to collect.
     */
    public long heapUsedAfterGc() throws IOException, InterruptedException {
        jcmd("GC.run");
        jcmd("GC.run"); // a second pass for what the first only made unreachable (finalizers, soft references)
        String info = jcmd("GC.heap_info");
        Matcher m = USED.matcher(info);
        if (!m.find()) {
            throw new IOException("no heap use in jcmd GC.heap_info: " + info);
        }
        return Long.parseLong(m.group(1)) * 1024;
    }

    /** Threads of the process, the JVM's own included ({@code /proc/PID/status}). */
    public int threads() throws IOException {
        return (int) field(THREADS, "Threads");
    }

    /** Resident memory in bytes ({@code /proc/PID/status} VmRSS). */
    public long residentBytes() throws IOException {
        return field(RSS, "VmRSS") * 1024;
    }

    /** Open file descriptors, sockets included ({@code /proc/PID/fd}). */
    public int openFileDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return (int) fds.count();
        }
    }

    /**
     * CPU time the process has used, user and system, in nanoseconds, from {@code /proc/PID/stat} (Linux; its clock
     * ticks are 1/100 s there); -1 where that cannot be read.
     */
    public long cpuNanos() {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L; // utime, stime
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private long field(Pattern p, String name) throws IOException {
        String status = Files.readString(Path.of("/proc", Long.toString(pid), "status"));
        Matcher m = p.matcher(status);
        if (!m.find()) {
            throw new IOException("no " + name + " in /proc/" + pid + "/status");
        }
        return Long.parseLong(m.group(1));
    }

    private String jcmd(String command) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("jcmd " + command + " failed: " + out);
        }
        return out;
    }
}
