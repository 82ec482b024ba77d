package dev.homing.cli;

import dev.homing.bench.dataplane.LoadGenerator;
import dev.homing.bench.dataplane.LoadResult;
import dev.homing.bench.dataplane.Nginx;
import dev.homing.bench.dataplane.RequestBytes;
import dev.homing.protocol.config.GoDuration;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code homing bench proxy}: the data plane beside nginx in one run. An nginx "pod" answers every completion at once
 * from memory (and vLLM's {@code /metrics} and {@code /v1/models}); the same requests go to it directly, through an
 * nginx proxy with a keep-alive upstream, and through {@code homing serve} in a process of its own, each measured
 * closed loop (the peak) and open loop at a fixed rate (the latency each adds), alternated round by round so all see
 * the same machine.
 */
@Command(name = "proxy", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The HTTP data plane's cost beside nginx 1.22 (Debian's) in one run: a pod of nginx `return "
                + "200` reached directly, through an nginx proxy_pass with a keep-alive upstream, and through "
                + "`homing serve` in its own JVM. Closed loop for each one's peak requests/s, p50 and p99; open loop "
                + "at a fixed rate (latency from each request's intended start) for what each adds over direct. "
                + "Goals: Homing's peak >= 80 %% of nginx's; added p99 over direct at 1,000 requests/s <= 1 ms."})
final class BenchProxyCommand implements Callable<Integer> {

    static final String MODEL = "bench-model";

    @Option(names = "--warmup", defaultValue = "30s",
            description = "Closed-loop load on Homing before measuring, for its JIT (default: ${DEFAULT-VALUE}).")
    String warmup;

    @Option(names = "--duration", defaultValue = "10s",
            description = "Each measurement's length, a Go duration (default: ${DEFAULT-VALUE}).")
    String duration;

    @Option(names = "--connections", defaultValue = "64",
            description = "Closed-loop connections (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--rate", defaultValue = "1000",
            description = "Open-loop requests per second (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--rounds", defaultValue = "2",
            description = "Measurements of each target, alternated (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--prompt-bytes", defaultValue = "1024",
            description = "Bytes of the completion's prompt (default: ${DEFAULT-VALUE}).")
    int promptBytes;

    @Option(names = "--jfr", paramLabel = "FILE",
            description = "Record Homing's JVM with Java Flight Recorder (settings=profile) into FILE.")
    Path jfr;

    @Mixin
    HomingProcessOptions process = new HomingProcessOptions();

    @Override
    public Integer call() throws Exception {
        Duration d = GoDuration.parse(duration);
        int[] ports = FreePorts.of(4);
        byte[] request = request(promptBytes);
        try (TempDir dir = TempDir.create("homing-bench-proxy");
             Nginx pod = Nginx.pod(dir.resolve("pod"), ports[0], completion(), models(), metrics());
             Nginx proxy = Nginx.proxy(dir.resolve("proxy"), ports[1], "127.0.0.1:" + ports[0]);
             HomingProcess homing = HomingProcess.start(dir.resolve("homing"), ports[2], ports[3],
                     "p1=127.0.0.1:" + ports[0], jfr, process)) {
            Map<String, LoadGenerator> targets = new LinkedHashMap<>();
            targets.put("direct", generator(ports[0], request));
            targets.put("nginx", generator(ports[1], request));
            targets.put("homing", generator(ports[2], request));
            homing.awaitServing(targets.get("homing"));
            System.out.printf("homing bench proxy: a %d-byte completion request to an nginx pod (127.0.0.1:%d) "
                    + "directly, through nginx (:%d) and through homing (:%d); %d connections closed loop, %.0f/s "
                    + "open loop, %s each, %d rounds%n", request.length, ports[0], ports[1], ports[2], connections,
                    rate, duration, rounds);
            System.out.println("warming up...");
            Duration w = GoDuration.parse(warmup);
            targets.get("homing").closedLoop(connections, w);
            targets.get("nginx").closedLoop(connections, Duration.ofSeconds(2));
            targets.get("direct").closedLoop(connections, Duration.ofSeconds(2));
            Map<String, List<LoadResult>> closed = new LinkedHashMap<>();
            Map<String, List<LoadResult>> open = new LinkedHashMap<>();
            System.out.printf("%n%-7s %-5s %-14s %9s %7s %9s %9s %9s %9s%n", "target", "round", "load", "req/s",
                    "errors", "p50 ms", "p99 ms", "p99.9 ms", "max ms");
            // Helidon answering /health from memory in the same process: what the server alone costs a request
            LoadGenerator health = new LoadGenerator(new InetSocketAddress("127.0.0.1", ports[2]),
                    "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            health.closedLoop(connections, Duration.ofSeconds(2));
            List<Double> cpuProxied = new ArrayList<>();
            List<Double> cpuHealth = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                for (Map.Entry<String, LoadGenerator> t : targets.entrySet()) {
                    long cpu = homing.cpuNanos();
                    LoadResult r = t.getValue().closedLoop(connections, d);
                    if (t.getKey().equals("homing")) {
                        cpuProxied.add(cpuMicrosPerRequest(cpu, homing.cpuNanos(), r));
                    }
                    closed.computeIfAbsent(t.getKey(), k -> new ArrayList<>()).add(r);
                    row(t.getKey(), round, connections + " closed", r);
                }
                long cpu = homing.cpuNanos();
                LoadResult h = health.closedLoop(connections, d);
                cpuHealth.add(cpuMicrosPerRequest(cpu, homing.cpuNanos(), h));
                row("health", round, connections + " closed", h);
                for (Map.Entry<String, LoadGenerator> t : targets.entrySet()) {
                    LoadResult r = t.getValue().openLoop(rate, connections, d);
                    open.computeIfAbsent(t.getKey(), k -> new ArrayList<>()).add(r);
                    row(t.getKey(), round, String.format("%.0f/s open", rate), r);
                }
            }
            summary(closed, open);
            System.out.printf("Homing's CPU a request (its process, closed loop): %.1f µs proxied, %.1f µs for "
                    + "/health answered from memory (the server alone)%n", mean(cpuProxied), mean(cpuHealth));
            if (jfr != null) {
                System.out.println("\nJFR recording of Homing's process: " + jfr
                        + " (jfr print --events jdk.ExecutionSample, or jfr view hot-methods)");
            }
        }
        return 0;
    }

    private void summary(Map<String, List<LoadResult>> closed, Map<String, List<LoadResult>> open) {
        double direct = mean(closed.get("direct"), LoadResult::requestsPerSecond);
        double nginx = mean(closed.get("nginx"), LoadResult::requestsPerSecond);
        double homing = mean(closed.get("homing"), LoadResult::requestsPerSecond);
        System.out.printf("%nPeak (mean of rounds): direct %.0f/s, nginx %.0f/s, homing %.0f/s: homing is %.0f %% of "
                + "nginx's (goal >= 80 %%) and %.0f %% of direct%n", direct, nginx, homing, 100 * homing / nginx,
                100 * homing / direct);
        for (double pct : new double[] {50, 99}) {
            double dl = mean(open.get("direct"), r -> r.millis(pct));
            double nl = mean(open.get("nginx"), r -> r.millis(pct));
            double hl = mean(open.get("homing"), r -> r.millis(pct));
            System.out.printf("At %.0f/s, p%.0f over direct: nginx adds %+.2f ms, homing %+.2f ms%s%n", rate, pct,
                    nl - dl, hl - dl, pct == 99 ? " (goal <= 1 ms)" : "");
        }
    }

    /** CPU microseconds of Homing's process per answered request over a run; NaN where the CPU is not known. */
    private static double cpuMicrosPerRequest(long before, long after, LoadResult r) {
        return before < 0 || after < 0 || r.ok() == 0 ? Double.NaN : (after - before) / 1e3 / r.ok();
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    private static double mean(List<LoadResult> results, ToDoubleFunction<LoadResult> f) {
        return results.stream().mapToDouble(f).average().orElse(Double.NaN);
    }

    private static void row(String target, int round, String load, LoadResult r) {
        System.out.printf("%-7s %-5d %-14s %9.0f %7d %9.2f %9.2f %9.2f %9.2f%n", target, round, load,
                r.requestsPerSecond(), r.failed(), r.millis(50), r.millis(99), r.millis(99.9), r.millis(100));
    }

    private static LoadGenerator generator(int port, byte[] request) {
        return new LoadGenerator(new InetSocketAddress("127.0.0.1", port), request);
    }

    /** A completion request as an OpenAI client sends it, its prompt {@code promptBytes} long. */
    static byte[] request(int promptBytes) {
        StringBuilder prompt = new StringBuilder(promptBytes);
        String words = "the quick brown fox jumps over the lazy dog ";
        while (prompt.length() < promptBytes) {
            prompt.append(words);
        }
        prompt.setLength(Math.max(1, promptBytes));
        return RequestBytes.postJson("/v1/completions", "{\"model\":\"" + MODEL + "\",\"prompt\":\"" + prompt
                + "\",\"max_tokens\":16}");
    }

    /** vLLM's answer to a completion, with its usage. */
    static String completion() {
        return "{\"id\":\"cmpl-bench\",\"object\":\"text_completion\",\"created\":1765000000,\"model\":\"" + MODEL
                + "\",\"choices\":[{\"index\":0,\"text\":\" a sixteen token answer from a pod that answers at once"
                + "\",\"logprobs\":null,\"finish_reason\":\"length\",\"stop_reason\":null}],\"usage\":{"
                + "\"prompt_tokens\":256,\"total_tokens\":272,\"completion_tokens\":16,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":0}}}";
    }

    static String models() {
        return "{\"object\":\"list\",\"data\":[{\"id\":\"" + MODEL + "\",\"object\":\"model\",\"created\":1765000000,"
                + "\"owned_by\":\"vllm\",\"root\":\"" + MODEL + "\",\"parent\":null,\"max_model_len\":32768}]}";
    }

    /** An idle vLLM pod's gauges, so that the router's scraper sees a healthy, empty pod. */
    static String metrics() {
        String l = "{engine=\"0\",model_name=\"" + MODEL + "\"}";
        return "# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running" + l + " 0.0\n"
                + "# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting" + l + " 0.0\n"
                + "# TYPE vllm:kv_cache_usage_perc gauge\nvllm:kv_cache_usage_perc" + l + " 0.0\n"
                + "# TYPE vllm:cache_config_info gauge\nvllm:cache_config_info{block_size=\"16\",engine=\"0\","
                + "num_gpu_blocks=\"10000\"} 1.0\n";
    }
}
