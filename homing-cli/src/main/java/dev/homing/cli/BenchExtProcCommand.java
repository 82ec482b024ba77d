package dev.homing.cli;

import dev.homing.bench.extproc.ExtProcCall;
import dev.homing.bench.extproc.ExtProcLoad;
import dev.homing.bench.extproc.NoopPicker;
import dev.homing.cli.cluster.LocalCluster;
import dev.homing.protocol.config.GoDuration;
import dev.homing.router.extproc.GrpcPort;
import dev.homing.sim.engine.Preset;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code homing bench ext-proc}: what the picker costs a gateway. A client playing Envoy sends the same requests to
 * the router's ext_proc port (simulated pods behind it, the default policy deciding) and to a no-op grpc-java
 * ext_proc server that decides nothing, alternating in one run so both see the same machine: open loop at a fixed
 * rate for the decision latency, then closed loop for each one's peak rate.
 */
@Command(name = "ext-proc", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The ext_proc picker's cost, beside a no-op ext_proc server in the same run: p50/p99 from the "
                + "last request chunk to the header mutation at a fixed rate (open loop), and the peak rate (closed "
                + "loop). Each request: headers, a chat body in 3 chunks, then a streamed response of SSE chunks "
                + "echoed one by one. Goals: p99 <= 1 ms at 1,000 requests/s; peak >= 70 %% of the no-op server's."})
final class BenchExtProcCommand implements Callable<Integer> {


    @Option(names = "--model", defaultValue = "Qwen/Qwen2.5-0.5B-Instruct",
            description = "The model the request bodies name, one the picker's pool serves (default: ${DEFAULT-VALUE}).")
    String model;

    @Option(names = "--warmup", defaultValue = "10s",
            description = "Closed-loop load on each server before measuring, for the JIT (default: ${DEFAULT-VALUE}).")
    String warmup;

    @Option(names = "--rate", defaultValue = "1000", description = "Open-loop requests per second (default: ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--duration", defaultValue = "15s", description = "Each measurement's length, a Go duration (default: ${DEFAULT-VALUE}).")
    String duration;

    @Option(names = "--concurrency", defaultValue = "32", description = "Closed-loop clients for the peak (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--rounds", defaultValue = "2", description = "Measurements of each server, alternated (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--body-bytes", defaultValue = "4096", description = "Chat body size (default: ${DEFAULT-VALUE}).")
    int bodyBytes;

    @Option(names = "--response-chunks", defaultValue = "20", description = "SSE chunks per response (default: ${DEFAULT-VALUE}).")
    int responseChunks;

    @Option(names = "--pods", defaultValue = "3", description = "Simulated pods behind the picker (default: ${DEFAULT-VALUE}).")
    int pods;

    @Option(names = "--tls", description = "Both servers speak TLS (self-signed), as llm-d's picker by default; "
            + "default: plaintext, as a gateway inside the cluster often reaches it.")
    boolean tls;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the request bodies (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--picker", paramLabel = "HOST:PORT", description = "Measure this running picker (e.g. homing "
            + "serve --ext-proc-port 9002 --secure-serving=false) instead of one started here with simulated pods.")
    String picker;

    @Option(names = "--noop", paramLabel = "HOST:PORT", description = "Measure this running no-op server (homing "
            + "bench ext-proc --serve-noop PORT) instead of one started here.")
    String noop;

    @Option(names = "--serve-noop", paramLabel = "PORT", description = "Only serve the no-op ext_proc server on this "
            + "port, until interrupted: the baseline in a process of its own.")
    Integer serveNoop;

    @Override
    public Integer call() throws Exception {
        Duration d = GoDuration.parse(duration);
        GrpcPort.Security security = tls ? new GrpcPort.Security.SelfSigned(List.of("127.0.0.1"))
                : new GrpcPort.Security.Plaintext();
        if (serveNoop != null) {
            try (ShutdownSignal signal = new ShutdownSignal();
                 GrpcPort port = new GrpcPort("no-op ext_proc", "127.0.0.1", serveNoop, security, 64 << 20,
                         new NoopPicker("127.0.0.1:8000"))) {
                port.start();
                System.out.printf("homing bench ext-proc: no-op ext_proc server on 127.0.0.1:%d (%s)%n", port.port(),
                        tls ? "TLS" : "plaintext");
                signal.await();
            }
            return 0;
        }
        LocalCluster.Options o = new LocalCluster.Options(pods, model, Preset.byName("cpu-qwen2.5-0.5b"), "127.0.0.1",
                0, 0, 0, seed, null, false, null).withExtProc(new LocalCluster.ExtProc(0, -1, tls));
        try (LocalCluster cluster = this.picker != null ? null : LocalCluster.start(o);
             GrpcPort noopPort = this.noop != null ? null : new GrpcPort("no-op ext_proc", "127.0.0.1", 0, security,
                     64 << 20, new NoopPicker("127.0.0.1:8000"))) {
            if (noopPort != null) {
                noopPort.start();
            }
            ManagedChannel picker = this.picker != null ? channel(this.picker)
                    : ExtProcCall.channel(cluster.router().extProcPort(), tls);
            ManagedChannel baseline = this.noop != null ? channel(this.noop) : ExtProcCall.channel(noopPort.port(), tls);
            try {
                ExtProcLoad load = new ExtProcLoad(model, bodyBytes, responseChunks);
                System.out.printf("homing bench ext-proc: %d-byte chat bodies in 3 chunks, %d response chunks, %s; "
                        + "picker %s, no-op %s%n", bodyBytes, responseChunks, tls ? "TLS" : "plaintext",
                        this.picker != null ? this.picker : "here, " + pods + " simulated pods behind it",
                        this.noop != null ? this.noop : "here");
                System.out.println("warming up...");
                Duration w = GoDuration.parse(warmup);
                load.closedLoop(baseline, concurrency, w, seed);
                load.closedLoop(picker, concurrency, w, seed);
                System.out.printf("%n%-8s %-5s %-12s %9s %7s %9s %9s %9s %9s %11s%n", "server", "round", "load",
                        "done", "errors", "p50 µs", "p99 µs", "p99.9 µs", "max µs", "req/s");
                double[] peaks = new double[2];
                double worstP99 = 0;
                for (int round = 1; round <= rounds; round++) {
                    ExtProcLoad.Result n = load.openLoop(baseline, rate, d, seed + round);
                    row("no-op", round, rate + "/s open", n);
                    ExtProcLoad.Result p = load.openLoop(picker, rate, d, seed + round);
                    row("homing", round, rate + "/s open", p);
                    worstP99 = Math.max(worstP99, p.p99Micros());
                    ExtProcLoad.Result np = load.closedLoop(baseline, concurrency, d, seed + round);
                    row("no-op", round, concurrency + " closed", np);
                    ExtProcLoad.Result pp = load.closedLoop(picker, concurrency, d, seed + round);
                    row("homing", round, concurrency + " closed", pp);
                    peaks[0] += np.perSecond();
                    peaks[1] += pp.perSecond();
                }
                double ratio = peaks[1] / peaks[0];
                System.out.printf("%nhoming's worst p99 at %d/s: %.0f µs (goal <= 1000); its peak: %.0f %% of the "
                        + "no-op server's (goal >= 70 %%)%n", rate, worstP99, 100 * ratio);
            } finally {
                picker.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
                baseline.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
        return 0;
    }

    private ManagedChannel channel(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("expected HOST:PORT, got '" + hostPort + "'");
        }
        return ExtProcCall.channel(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)), tls);
    }

    private static void row(String server, int round, String load, ExtProcLoad.Result r) {
        System.out.printf("%-8s %-5d %-12s %9d %7d %9.0f %9.0f %9.0f %9.0f %11.0f%n", server, round, load, r.completed(),
                r.errors(), r.p50Micros(), r.p99Micros(), r.p999Micros(), r.maxMicros(), r.perSecond());
    }
}
