package dev.homing.cli;

import dev.homing.bench.dataplane.LoadGenerator;
import dev.homing.bench.dataplane.RequestBytes;
import dev.homing.bench.soak.SoakFiles;
import dev.homing.bench.soak.SoakReport;
import dev.homing.bench.soak.SoakRun;
import dev.homing.bench.soak.SoakSettings;
import dev.homing.bench.soak.SoakTarget;
import dev.homing.protocol.config.GoDuration;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code homing soak}: {@code homing serve} in a JVM of its own in front of simulated pods, each a {@code homing sim}
 * process of its own, under mixed streaming and non-streaming load for minutes while pods are killed (SIGKILL) and
 * started again on their ports; the router sampled from outside each interval. Pods are processes rather than pods
 * in this JVM because a kill must be a pod's death, not its shutdown: nothing of the pod runs after it, and the
 * kernel, not the pod, closes its sockets.
 */
@Command(name = "soak", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run `homing serve` (its own JVM) in front of simulated vLLM pods (`homing sim`, one JVM each) "
                + "under mixed streaming and non-streaming chat and completion requests with shared prefixes, at a "
                + "bounded concurrency, for --minutes; every --kill-every one pod is killed (SIGKILL) and started "
                + "again on its port --down-for later. Each interval the router is sampled from outside: heap after "
                + "a full GC, threads, file descriptors, its in-flight gauges; and the clients' requests counted: "
                + "sent, 2xx, errors by status, lost (no status at all), streams cut mid-way. At the end the load "
                + "stops and the router must come to rest with nothing in flight.",
            "Goals (issue 16): heap after GC at the last sample <= 1.1x the second's; threads and file descriptors "
                + "within +-5 of it; in flight at rest 0; lost 0. Exit code 0 when all hold. Writes soak.json and "
                + "soak.md (and the processes' logs) into --out."})
final class SoakCommand implements Callable<Integer> {

    @Option(names = "--minutes", defaultValue = "10", paramLabel = "N",
            description = "How long the load runs (default: ${DEFAULT-VALUE}).")
    int minutes;

    @Option(names = "--sample-every", defaultValue = "1m", paramLabel = "DURATION", description = "Time between "
            + "samples of the router, a Go duration dividing --minutes (default: ${DEFAULT-VALUE}).")
    String sampleEvery;

    @Option(names = "--pods", defaultValue = "3", paramLabel = "N",
            description = "Simulated pods (default: ${DEFAULT-VALUE}).")
    int pods;

    @Option(names = "--concurrency", defaultValue = "16", paramLabel = "N",
            description = "Clients, each with one request at a time (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--rate", paramLabel = "REQ/S", description = "Start at most this many requests a second in all "
            + "(default: as fast as --concurrency clients go).")
    Double rate;

    @Option(names = "--kill-every", defaultValue = "90s", paramLabel = "DURATION", description = "Kill one pod this "
            + "often, the pods in turn; 0s for none (default: ${DEFAULT-VALUE}).")
    String killEvery;

    @Option(names = "--down-for", defaultValue = "10s", paramLabel = "DURATION", description = "How long a killed "
            + "pod stays down before it is started again (default: ${DEFAULT-VALUE}).")
    String downFor;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Seed of the request mix's prompts "
            + "and order and of the first pod killed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--read-timeout", defaultValue = "60s", paramLabel = "DURATION", description = "A client gives "
            + "a request up when the router sends nothing for this long (default: ${DEFAULT-VALUE}).")
    String readTimeout;

    @Option(names = "--out", paramLabel = "DIR", description = "Where to write the report "
            + "(default: bench-results/soak-<timestamp>).")
    Path out;

    @Mixin
    HomingProcessOptions process = new HomingProcessOptions();

    @Override
    public Integer call() throws Exception {
        if (minutes < 1) {
            throw new IllegalArgumentException("--minutes must be at least 1, got " + minutes);
        }
        if (pods < 1) {
            throw new IllegalArgumentException("--pods must be at least 1, got " + pods);
        }
        SoakSettings settings = new SoakSettings(Duration.ofMinutes(minutes), GoDuration.parse(sampleEvery),
                concurrency, rate == null ? 0 : rate, GoDuration.parse(killEvery), GoDuration.parse(downFor), seed,
                GoDuration.parse(readTimeout), Duration.ofSeconds(60));
        Path dir = out != null ? out : Path.of("bench-results", "soak-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        int[] ports = FreePorts.of(pods + 2);
        int[] podPorts = java.util.Arrays.copyOf(ports, pods);
        int api = ports[pods];
        int admin = ports[pods + 1];
        SoakReport report;
        try (TempDir tmp = TempDir.create("homing-soak")) {
            try (PodFleet fleet = PodFleet.start(tmp.path(), podPorts, SoakRun.MODEL, seed);
                 HomingProcess homing = HomingProcess.start(tmp.resolve("homing"), api, admin, fleet.endpoints(),
                         null, process)) {
                try {
                    homing.awaitServing(new LoadGenerator(new InetSocketAddress("127.0.0.1", api),
                            RequestBytes.postJson("/v1/completions", "{\"model\":\"" + SoakRun.MODEL
                                    + "\",\"prompt\":\"are you there\",\"max_tokens\":1}")));
                    SoakTarget target = new SoakTarget(new InetSocketAddress("127.0.0.1", api),
                            URI.create("http://127.0.0.1:" + admin + "/metrics"), homing.probe());
                    report = new SoakRun(settings, target, fleet, command(), System.out).run();
                    if (!homing.alive()) {
                        System.out.println("homing serve exited during the soak; its log is in " + dir);
                    }
                } finally {
                    keepLogs(dir, homing.log(), fleet.logs());
                }
            }
        }
        System.out.println();
        for (Path written : SoakFiles.write(report, dir)) {
            System.out.println("wrote " + written.toAbsolutePath());
        }
        System.out.println("reproduce: " + report.command());
        return report.met() ? 0 : 1;
    }

    /** The processes' logs go beside the report, for whatever a finding needs. */
    private static void keepLogs(Path dir, Path homingLog, List<Path> podLogs) throws IOException {
        Files.createDirectories(dir);
        List<Path> logs = new ArrayList<>(List.of(homingLog));
        logs.addAll(podLogs);
        for (Path log : logs) {
            if (Files.exists(log)) {
                Files.copy(log, dir.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /** The command line that reproduces the run: every option that changes what runs, the seed always. */
    private String command() {
        List<String> args = new ArrayList<>(List.of("homing", "soak", "--minutes", Integer.toString(minutes)));
        if (!sampleEvery.equals("1m")) {
            args.addAll(List.of("--sample-every", sampleEvery));
        }
        args.addAll(List.of("--pods", Integer.toString(pods), "--concurrency", Integer.toString(concurrency)));
        if (rate != null) {
            args.addAll(List.of("--rate", rate.toString()));
        }
        args.addAll(List.of("--kill-every", killEvery, "--down-for", downFor, "--seed", Long.toString(seed)));
        if (!readTimeout.equals("60s")) {
            args.addAll(List.of("--read-timeout", readTimeout));
        }
        if (process.jar != null) {
            args.addAll(List.of("--homing-jar", process.jar.toString()));
        }
        if (process.config != null) {
            args.addAll(List.of("--homing-config", process.config.toString()));
        }
        if (!process.jvmArgs.isEmpty()) {
            args.addAll(List.of("--homing-jvm-args", String.join(" ", process.jvmArgs)));
        }
        return String.join(" ", args.stream().map(BenchCommand::shellQuote).toList());
    }
}
