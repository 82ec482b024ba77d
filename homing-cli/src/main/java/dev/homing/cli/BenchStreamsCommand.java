package dev.homing.cli;

import dev.homing.bench.dataplane.LoadGenerator;
import dev.homing.bench.dataplane.PacedStreamPod;
import dev.homing.bench.dataplane.RequestBytes;
import dev.homing.bench.dataplane.StreamLoad;
import dev.homing.protocol.config.GoDuration;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code homing bench streams}: thousands of SSE streams open at once through {@code homing serve}, each a slow pod
 * response (one event every interval, no batching to slow it): whether every stream finishes, the largest gap
 * between two arrivals a user saw, and the heap each open stream costs the router (measured after a full collection
 * with all streams open, less the same before any).
 */
@Command(name = "streams", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Open N SSE streams at once through `homing serve` in its own JVM to a pod that sends one event "
                + "per interval; report streams completed, the gaps between arrivals and Homing's heap per open "
                + "stream. Goals: 2,000 streams, heap <= 64 KiB a stream, largest gap <= 2x the interval + 50 ms."})
final class BenchStreamsCommand implements Callable<Integer> {

    @Option(names = "--streams", defaultValue = "2000",
            description = "Streams open at once (default: ${DEFAULT-VALUE}).")
    int streams;

    @Option(names = "--events", defaultValue = "100", description = "Events per stream (default: ${DEFAULT-VALUE}).")
    int events;

    @Option(names = "--interval", defaultValue = "100ms",
            description = "Time between a stream's events, a Go duration (default: ${DEFAULT-VALUE}).")
    String interval;

    @Option(names = "--ramp", defaultValue = "1000",
            description = "Streams opened per second until all are open (default: ${DEFAULT-VALUE}).")
    int ramp;

    @Mixin
    HomingProcessOptions process = new HomingProcessOptions();

    @Override
    public Integer call() throws Exception {
        Duration every = GoDuration.parse(interval);
        int[] ports = FreePorts.of(2);
        try (TempDir dir = TempDir.create("homing-bench-streams");
             PacedStreamPod pod = new PacedStreamPod(events, every, BenchProxyCommand.models(),
                BenchProxyCommand.metrics());
             HomingProcess homing = HomingProcess.start(dir.path(), ports[0], ports[1], "p1=127.0.0.1:" + pod.port(), null,
                     process)) {
            InetSocketAddress router = new InetSocketAddress("127.0.0.1", ports[0]);
            homing.awaitServing(new LoadGenerator(router, request(1)));
            // warm the path once with a tenth of the streams, then measure the heap at rest
            new StreamLoad(router, request(streams)).run(Math.max(1, streams / 10), ramp,
                    Duration.ofSeconds(120), () -> { });
            long before = homing.heapUsedAfterGc();
            long[] during = new long[1];
            int[] openAtPod = new int[1];
            System.out.printf("homing bench streams: %d streams through homing (:%d) to a pod sending %d events, one "
                    + "every %s; %d opened a second%n", streams, ports[0], events, interval, ramp);
            Duration timeout = every.multipliedBy(events).plusSeconds(60L + streams / Math.max(1, ramp));
            // the heap is measured in a run of its own: a full collection stops every stream for as long as it lasts
            StreamLoad.Result heapRun = new StreamLoad(router, request(streams)).run(streams, ramp, timeout, () -> {
                try {
                    openAtPod[0] = pod.openStreams();
                    during[0] = homing.heapUsedAfterGc();
                } catch (Exception e) {
                    throw new IllegalStateException("measuring Homing's heap: " + e.getMessage(), e);
                }
            });
            // the same streams straight from the pod: what this machine and the harness alone make of the gaps
            StreamLoad.Result direct = new StreamLoad(new InetSocketAddress("127.0.0.1", pod.port()), request(streams))
                    .run(streams, ramp, timeout, () -> { });
            long t0 = System.nanoTime();
            StreamLoad.Result r = new StreamLoad(router, request(streams)).run(streams, ramp, timeout, () -> { });
            double seconds = (System.nanoTime() - t0) / 1e9;
            double perStream = (during[0] - before) / (double) Math.max(1, openAtPod[0]);
            double goalGapMs = 2 * every.toNanos() / 1e6 + 50;
            Histogram gaps = r.gapMicros();
            Histogram largest = r.largestGapMicros();
            System.out.printf("%ncompleted %d, failed %d, in %.1f s (the heap's run: completed %d, failed %d)%n",
                    r.completed(), r.failed(), seconds, heapRun.completed(), heapRun.failed());
            r.whyFailed().forEach((why, n) -> System.out.printf("  failed: %d %s%n", n, why));
            heapRun.whyFailed().forEach((why, n) -> System.out.printf("  failed in the heap's run: %d %s%n", n, why));
            System.out.printf("open at the pod while measured: %d; Homing's heap after a full GC: %.1f MiB before, "
                    + "%.1f MiB with them open: %.1f KiB a stream (goal <= 64)%n", openAtPod[0], before / 1048576.0,
                    during[0] / 1048576.0, perStream / 1024);
            System.out.printf("gap between arrivals: p50 %.1f ms, p99 %.1f ms, p99.9 %.1f ms, max %.1f ms; a stream's "
                    + "largest gap: p50 %.1f ms, p99 %.1f ms, max %.1f ms (goal <= %.0f ms)%n",
                    gaps.getValueAtPercentile(50) / 1e3, gaps.getValueAtPercentile(99) / 1e3,
                    gaps.getValueAtPercentile(99.9) / 1e3, gaps.getMaxValue() / 1e3,
                    largest.getValueAtPercentile(50) / 1e3, largest.getValueAtPercentile(99) / 1e3,
                    largest.getMaxValue() / 1e3, goalGapMs);
            System.out.printf("first chunk: p50 %.1f ms, p99 %.1f ms%n", r.firstChunkMicros().getValueAtPercentile(50)
                    / 1e3, r.firstChunkMicros().getValueAtPercentile(99) / 1e3);
            System.out.printf("straight from the pod (completed %d, failed %d): gap p50 %.1f ms, p99 %.1f ms, max %.1f "
                    + "ms; a stream's largest gap p99 %.1f ms, max %.1f ms; first chunk p50 %.1f ms, p99 %.1f ms%n",
                    direct.completed(), direct.failed(), direct.gapMicros().getValueAtPercentile(50) / 1e3,
                    direct.gapMicros().getValueAtPercentile(99) / 1e3, direct.gapMicros().getMaxValue() / 1e3,
                    direct.largestGapMicros().getValueAtPercentile(99) / 1e3,
                    direct.largestGapMicros().getMaxValue() / 1e3,
                    direct.firstChunkMicros().getValueAtPercentile(50) / 1e3,
                    direct.firstChunkMicros().getValueAtPercentile(99) / 1e3);
            return r.failed() == 0 && heapRun.failed() == 0 ? 0 : 1;
        }
    }

    /** A streaming completion request. */
    private static byte[] request(int n) {
        return RequestBytes.postJson("/v1/completions", "{\"model\":\"" + BenchProxyCommand.MODEL
                + "\",\"prompt\":\"stream " + n + " tokens to me\",\"max_tokens\":100,\"stream\":true}");
    }
}
