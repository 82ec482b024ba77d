package dev.homing.cli;

import dev.homing.core.config.DefaultConfig;
import dev.homing.core.director.Director;
import dev.homing.core.director.Dispatch;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.learned.ApproxIndex;
import dev.homing.core.learned.LearnedState;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RequestParser;
import dev.homing.router.learned.RedisLearnedState;
import dev.homing.router.shared.SharedRedis;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code homing bench replicas}: what sharing the learned state through Redis costs a decision. Homing's default
 * config decides at a fixed rate beside a second replica deciding at the same rate on another thread, alternately
 * with their learned state each in memory and shared through a real Redis (where this replica's follower applies the
 * other's picks while it decides); each decision is timed from the moment the open-loop schedule meant it to start
 * to its release (so that a decision delayed by the one before it counts its wait: no coordinated omission), beside
 * its service time (from its actual start) and its thread's CPU time (which leaves out the time the thread waited
 * for a core: on a small machine the second replica, the writer, the follower and a local redis-server all compete
 * for them). Then the replication lag, while both replicas decide at the rate: how long after one replica records a
 * prompt the other can match it. The hit rate of replicas behind a round robin is measured in
 * virtual time by {@code homing bench --policies homing,homing-2-replicas,homing-2-replicas-unshared}.
 */
@Command(name = "replicas", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The cost of sharing learned state (approximate prefix index, newcomer order) through Redis: "
                + "decision p50/p99 of a replica beside a second one (both deciding), their state in memory and "
                + "through Redis, alternated in one run; then the replication lag between the two replicas. Goal: Redis adds <= 0.5 ms p99."})
final class BenchReplicasCommand implements Callable<Integer> {

    private static final String MODEL = "Qwen/Qwen3-32B";

    @Option(names = "--redis", paramLabel = "URL", description = "The Redis to share through (default: a "
            + "redis-server started here on a free port of 127.0.0.1, without persistence).")
    String redis;

    @Option(names = "--pods", defaultValue = "16", description = "Pods in the pool (default: ${DEFAULT-VALUE}).")
    int pods;

    @Option(names = "--rate", defaultValue = "500", description = "Decisions per second per replica, open loop "
            + "(default: ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--seconds", defaultValue = "15", description = "Each measurement's length (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--warmup", defaultValue = "5", description = "Seconds decided before each measurement, not "
            + "counted (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--rounds", defaultValue = "2", description = "Measurements of each mode, alternated "
            + "(default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--prompt-bytes", defaultValue = "4096", description = "Prompt size; three quarters of each "
            + "is one of 32 shared system prompts (default: ${DEFAULT-VALUE}).")
    int promptBytes;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the prompts (default: ${DEFAULT-VALUE}).")
    long seed;

    @Override
    public Integer call() throws Exception {
        Process server = null;
        String url = redis;
        if (url == null) {
            int port = FreePorts.of(1)[0];
            server = startRedis(port);
            url = "redis://127.0.0.1:" + port;
        }
        try {
            run(url);
        } finally {
            if (server != null) {
                server.destroy();
                server.waitFor(5, TimeUnit.SECONDS);
            }
        }
        return 0;
    }

    private void run(String url) throws Exception {
        List<byte[]> bodies = bodies(new SplittableRandom(seed));
        System.out.printf("homing bench replicas: Homing's default config, %d pods, %d B prompts, %d decisions/s per "
                + "replica, %d s a measurement after %d s warm-up, Redis %s%n%n", pods, promptBytes, rate, seconds,
                warmup, url);
        System.out.printf("load average at start: %s%n%n", loadAverage());
        System.out.printf("%-7s %-16s %10s %10s %10s %10s %14s %14s %14s %10s%n", "round", "learned state",
                "decisions", "p50 (us)", "p99 (us)", "p99.9 (us)", "service p99", "CPU p50 (us)", "CPU p99 (us)",
                "fallbacks");
        for (int round = 1; round <= rounds; round++) {
            Timings local = besideAReplica(director(LearnedState.IN_MEMORY), director(LearnedState.IN_MEMORY), bodies,
                    null);
            print(round, "in memory", local, 0);
            String pool = "bench-replicas-" + System.nanoTime();
            try (SharedRedis ra = SharedRedis.create(url, pool, Duration.ofMillis(250), Duration.ofMillis(250));
                 SharedRedis rb = SharedRedis.create(url, pool, Duration.ofMillis(250), Duration.ofMillis(250));
                 RedisLearnedState a = new RedisLearnedState(ra);
                 RedisLearnedState b = new RedisLearnedState(rb)) {
                ra.start();
                rb.start();
                a.start();
                b.start();
                Timings shared = besideAReplica(director(a), director(b), bodies, null);
                print(round, "through Redis", shared, ra.fallbacks() + rb.fallbacks());
                if (round == rounds) {
                    // once more, untimed, with the lag probed meanwhile: the lag of two replicas at work
                    besideAReplica(director(a), director(b), bodies, () -> lag(a, b));
                }
            }
        }
    }

    /**
     * Each timed decision's wall time from its scheduled start to its release, its service time (from its actual
     * start), and the CPU time its thread spent on it.
     */
    private record Timings(long[] wall, long[] service, long[] cpu) {
    }

    private static void print(int round, String mode, Timings t, long fallbacks) {
        System.out.printf("%-7d %-16s %10d %10.1f %10.1f %10.1f %14.1f %14.1f %14.1f %10d%n", round, mode,
                t.wall().length, percentile(t.wall(), 0.50) / 1e3, percentile(t.wall(), 0.99) / 1e3,
                percentile(t.wall(), 0.999) / 1e3, percentile(t.service(), 0.99) / 1e3,
                percentile(t.cpu(), 0.50) / 1e3, percentile(t.cpu(), 0.99) / 1e3, fallbacks);
    }

    /** Replica A records a fresh prompt; how long until B matches it (polled every 20 us, not spun on a core). */
    private static void lag(RedisLearnedState a, RedisLearnedState b) {
        ApproxIndex ia = a.approxIndex("lag-probe", 100_000);
        ApproxIndex ib = b.approxIndex("lag-probe", 100_000);
        EndpointPool probePool = new EndpointPool();
        probePool.setEndpoints(List.of(new Endpoint("pod-0", "10.0.0.1", 8000)));
        List<EndpointState> candidates = probePool.snapshot().endpoints();
        int samples = 1000;
        long[] lags = new long[samples];
        int timedOut = 0;
        for (int i = 0; i < samples; i++) {
            long[] hashes = {0x5EED_0000L + i, 0x7EED_0000L + i};
            long t0 = System.nanoTime();
            ia.record("pod-0", hashes, 1000);
            long deadline = t0 + TimeUnit.SECONDS.toNanos(1);
            while (ib.match(hashes, candidates, 1)[0] < 2) {
                if (System.nanoTime() > deadline) {
                    timedOut++;
                    break;
                }
                LockSupport.parkNanos(20_000);
            }
            lags[i] = System.nanoTime() - t0;
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
        System.out.printf("%nreplication lag while both replicas decide, A's record to B's match (%d samples, %d over "
                + "1 s): p50 %.1f us, p99 %.1f us, max %.1f us%n", samples, timedOut, percentile(lags, 0.50) / 1e3,
                percentile(lags, 0.99) / 1e3, percentile(lags, 1.0) / 1e3);
        System.out.printf("load average: %s%n", loadAverage());
    }

    /**
     * Replica A decides, timed, while replica B decides at the same rate on another thread: both modes run two
     * replicas on this machine, so that what differs between them is Redis (the appends, the follower applying the
     * other's picks), not the second replica's CPU.
     */
    private Timings besideAReplica(Director a, Director b, List<byte[]> bodies, Runnable alongside) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread other = Thread.ofPlatform().name("replica-b").daemon().start(() -> {
            try {
                decideUntil(b, bodies, stop);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Thread probe = alongside == null ? null : Thread.ofPlatform().name("probe").daemon().start(alongside);
        try {
            return measure(a, bodies);
        } finally {
            if (probe != null) {
                probe.join(); // still deciding meanwhile
            }
            stop.set(true);
            other.join();
        }
    }

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return String.format("%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }

    /** Decides at the rate, warm-up first; the timed decisions' durations, dispatch to release. */
    private Timings measure(Director director, List<byte[]> bodies) throws Exception {
        long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        int warm = warmup * rate;
        int count = seconds * rate;
        long[] wall = new long[count];
        long[] service = new long[count];
        long[] cpu = new long[count];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long next = System.nanoTime();
        for (int i = 0; i < warm + count; i++) {
            LockSupport.parkNanos(next - System.nanoTime());
            long scheduled = next;
            next += interval;
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            decide(director, bodies.get(i % bodies.size()));
            long end = System.nanoTime();
            long used = threads.getCurrentThreadCpuTime() - c0;
            if (i >= warm) {
                // from when it was due: a decision that waited for the one before (or for a core) counts that wait
                wall[i - warm] = end - Math.min(scheduled, t0);
                service[i - warm] = end - t0;
                cpu[i - warm] = used;
            }
        }
        return new Timings(wall, service, cpu);
    }

    private void decideUntil(Director director, List<byte[]> bodies, AtomicBoolean stop) throws Exception {
        long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        long next = System.nanoTime();
        for (int i = bodies.size() / 2; !stop.get(); i++) {
            LockSupport.parkNanos(next - System.nanoTime());
            next += interval;
            decide(director, bodies.get(i % bodies.size()));
        }
    }

    private static void decide(Director director, byte[] body) throws Exception {
        InferenceRequest r = new InferenceRequest("bench", RequestParser.parse(ApiKind.COMPLETIONS, body), Map.of());
        try (Dispatch d = director.dispatch(r)) {
            d.target();
        }
    }

    /** A replica's director on idle pods whose metrics were scraped once, as the JMH decision benchmark's. */
    private Director director(LearnedState learned) {
        SplittableRandom random = new SplittableRandom(42);
        EndpointPool pool = new EndpointPool();
        List<Endpoint> endpoints = new ArrayList<>();
        for (int i = 0; i < pods; i++) {
            endpoints.add(new Endpoint("pod-" + i, "10.0." + (i / 250) + "." + (i % 250), 8000));
        }
        pool.setEndpoints(endpoints);
        for (Endpoint e : endpoints) {
            EndpointMetrics m = new EndpointMetrics(random.nextInt(4), random.nextInt(32), random.nextDouble() * 0.9,
                    16, 19_208, Set.of(), Set.of(), -1, 0);
            pool.updateMetrics(e.name(), m, pool.load(e.name()).scrapeStarted());
        }
        PluginContext ctx = new PluginContext(System::nanoTime, random, pool).withLearnedState(learned);
        return new Director(pool, DefaultConfig.resolve(BuiltIns.registry(), ctx).policy(), System::nanoTime);
    }

    /** 32 system prompts; each body one of them plus its own question (a quarter of its length). */
    private List<byte[]> bodies(SplittableRandom random) {
        int groups = 32;
        int systemBytes = promptBytes * 3 / 4;
        String[] systems = new String[groups];
        for (int g = 0; g < groups; g++) {
            systems[g] = text(random, systemBytes);
        }
        List<byte[]> bodies = new ArrayList<>();
        for (int i = 0; i < 4096; i++) {
            String prompt = systems[i % groups] + text(random, promptBytes - systemBytes);
            bodies.add(("{\"model\":\"" + MODEL + "\",\"prompt\":\"" + prompt + "\",\"max_tokens\":256}")
                    .getBytes(StandardCharsets.UTF_8));
        }
        return bodies;
    }

    private static String text(SplittableRandom random, int bytes) {
        StringBuilder b = new StringBuilder(bytes + 16);
        while (b.length() < bytes) {
            b.append("token").append(random.nextInt(50_000)).append(' ');
        }
        b.setLength(bytes);
        return b.toString();
    }

    private static double percentile(long[] values, double q) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int i = (int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
        return sorted[Math.max(0, i)];
    }

    /** Debian's redis-server, no persistence, loopback only; waits until it accepts connections. */
    private static Process startRedis(int port) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new IllegalStateException("redis-server is not installed (apt-get install redis-server); or give "
                    + "--redis redis://HOST:PORT", e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return p;
            } catch (IOException notYet) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("redis-server exited at start (code " + p.exitValue() + ")");
                }
                Thread.sleep(20);
            }
        }
        p.destroy();
        throw new IllegalStateException("redis-server did not accept connections on port " + port + " within 10 s");
    }
}
