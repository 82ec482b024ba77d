package dev.homing.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.homing.cli.cluster.LocalCluster;
import dev.homing.protocol.metrics.PrometheusTextParser;
import dev.homing.protocol.metrics.VllmMetrics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code homing demo}: the reference demo of llm-d's router, on an embedded cluster. Checks both routing promises and
 * exits 0 only when both hold: six identical requests all land on one pod (pull home), and a concurrent burst of 30
 * unique prompts is spread over every pod with busiest/idlest prompt tokens at most 1.5 (spread newcomers). Prompt
 * tokens are read from each pod's own {@code vllm:prompt_tokens_total}, as the reference measures them.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Prove both routing promises on an embedded cluster; exit 0 only if both hold.")
final class DemoCommand implements Callable<Integer> {

    static final double MAX_SPREAD = 1.5;
    /** The reference's result: 255 / 53 / 94 prompt tokens. */
    static final double REFERENCE_SPREAD = 255.0 / 53.0;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Mixin
    ClusterOptions cluster;

    private HttpClient http;

    @Override
    public Integer call() throws Exception {
        try (LocalCluster c = LocalCluster.start(cluster.toOptions(0, 0));
             HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            http = client;
            System.out.printf("homing demo: %d simulated pods of %s behind the router at %s%s%n%n",
                    c.pods().size(), cluster.model, c.baseUrl(), c.gateway() == null ? ""
                            : " (a stand-in for Envoy asking the router's ext_proc picker on port "
                            + c.router().extProcPort() + ")");
            boolean home = pullHome(c);
            System.out.println();
            boolean spread = spreadNewcomers(c);
            System.out.println();
            System.out.println(home && spread ? "Both promises held." : "A promise did not hold.");
            return home && spread ? 0 : 1;
        }
    }

    private boolean pullHome(LocalCluster c) throws Exception {
        String prompt = DemoPrompts.LONG_PROMPT;
        Map<String, Double> before = promptTokens(c);
        Map<String, Integer> requests = new LinkedHashMap<>();
        long cached = 0;
        for (int i = 0; i < 6; i++) {
            Reply r = complete(c, prompt);
            requests.merge(r.pod, 1, Integer::sum);
            cached += r.cachedTokens;
        }
        Map<String, Double> tokens = delta(before, promptTokens(c));
        System.out.println("Promise 1, pull home: six identical requests with a " + DemoPrompts.words(prompt)
                + "-word prompt");
        table(c, requests, tokens);
        boolean held = requests.size() == 1;
        System.out.printf("  cached prompt tokens reported by the pods: %d%n", cached);
        System.out.println(held ? "  held: all six landed on " + requests.keySet().iterator().next()
                : "  NOT held: the six requests went to " + requests.keySet());
        return held;
    }

    private boolean spreadNewcomers(LocalCluster c) throws Exception {
        Map<String, Double> before = promptTokens(c);
        Map<String, Integer> requests = new LinkedHashMap<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Reply>> replies = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 1; i <= 30; i++) {
                String prompt = "Write one sentence about topic number " + i + " in cloud computing.";
                replies.add(pool.submit(() -> {
                    go.await();
                    return complete(c, prompt);
                }));
            }
            go.countDown();
            for (Future<Reply> f : replies) {
                requests.merge(f.get().pod, 1, Integer::sum);
            }
        }
        Map<String, Double> tokens = delta(before, promptTokens(c));
        System.out.println("Promise 2, spread newcomers: a concurrent burst of 30 unique prompts");
        table(c, requests, tokens);
        double max = tokens.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        double min = tokens.values().stream().mapToDouble(Double::doubleValue).min().orElse(0);
        boolean everyPod = min > 0;
        double spread = everyPod ? max / min : Double.POSITIVE_INFINITY;
        boolean held = everyPod && spread <= MAX_SPREAD;
        System.out.printf("  busiest/idlest prompt tokens: %s (goal <= %.1f; llm-d's reference run: 255/53 = %.1f)%n",
                everyPod ? String.format("%.2f", spread) : "a pod got nothing", MAX_SPREAD, REFERENCE_SPREAD);
        System.out.println(held ? "  held: every pod worked, evenly" : "  NOT held");
        return held;
    }

    private static void table(LocalCluster c, Map<String, Integer> requests, Map<String, Double> tokens) {
        System.out.printf("  %-48s %9s %14s%n", "pod", "requests", "prompt tokens");
        for (LocalCluster.Pod p : c.pods()) {
            System.out.printf("  %-48s %9d %14.0f%n", p.name(), requests.getOrDefault(p.name(), 0),
                    tokens.getOrDefault(p.name(), 0.0));
        }
    }

    private record Reply(String pod, long cachedTokens) {
    }

    private Reply complete(LocalCluster c, String prompt) throws Exception {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", cluster.model);
        body.put("prompt", prompt);
        body.put("max_tokens", 20);
        HttpRequest req = HttpRequest.newBuilder(URI.create(c.baseUrl() + "/v1/completions"))
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))).build();
        HttpResponse<byte[]> res = http.send(req, HttpResponse.BodyHandlers.ofByteArray());
        if (res.statusCode() != 200) {
            throw new IllegalStateException("the router answered " + res.statusCode() + ": " + new String(res.body()));
        }
        JsonNode json = JSON.readTree(res.body());
        return new Reply(res.headers().firstValue("x-homing-pod").orElse("?"),
                json.path("usage").path("prompt_tokens_details").path("cached_tokens").asLong(0));
    }

    /** Each pod's {@code vllm:prompt_tokens_total}, read from the pod itself. */
    private Map<String, Double> promptTokens(LocalCluster c) throws Exception {
        Map<String, Double> out = new LinkedHashMap<>();
        for (LocalCluster.Pod p : c.pods()) {
            HttpRequest req = HttpRequest.newBuilder(URI.create("http://" + p.address() + "/metrics")).GET().build();
            String text = http.send(req, HttpResponse.BodyHandlers.ofString()).body();
            out.put(p.name(), PrometheusTextParser.parse(text).sum(VllmMetrics.total(VllmMetrics.PROMPT_TOKENS)));
        }
        return out;
    }

    private static Map<String, Double> delta(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Double> out = new LinkedHashMap<>();
        after.forEach((k, v) -> out.put(k, v - before.getOrDefault(k, 0.0)));
        return out;
    }
}
