package dev.homing.router;

import static dev.homing.router.fixtures.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.protocol.fixtures.LocalPrometheus;
import dev.homing.protocol.metrics.VllmMetrics;
import dev.homing.router.fixtures.TestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus (Debian's) discovers the pods through the router's {@code /prometheus/targets}, scrapes them with a
 * {@code pod} label, and answers the reference demo's query with the split of prompt tokens.
 */
class PrometheusIT {

    static final String QUERY = "sum by(pod) (increase(vllm:prompt_tokens_total[5m]))";

    @TempDir
    Path dir;

    @Test
    void prometheusSeesTheSplitPerPod() throws Exception {
        // Scraped by the router once, at the start, so its split does not depend on where a scrape lands in the
        // burst (PromisesIT says why); Prometheus scrapes the pods on its own.
        try (TestCluster cluster = TestCluster.start(3, b -> b, o -> o.with(x -> x.scrapeInterval = Duration.ofHours(1)));
             LocalPrometheus prometheus = LocalPrometheus.start(dir, cluster.router().adminPort())) {
            // Every pod scraped several times before the traffic: increase() extrapolates over the span it has
            // samples for, and a span of a couple of seconds would inflate the result by half or more.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .until(() -> {
                        List<JsonNode> r = prometheus.query("count_over_time(vllm:prompt_tokens_total[1m]) >= 6");
                        return r.size() == 3;
                    });
            Map<String, Double> direct = burst(cluster);
            // Wait until Prometheus' latest samples hold everything the pods counted.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
                List<JsonNode> raw = prometheus.query("vllm:prompt_tokens_total");
                return raw.size() == 3 && raw.stream().allMatch(s -> s.path("value").get(1).asDouble()
                        == cluster.http().metrics(cluster.podUrl(Integer.parseInt(s.path("metric").path("pod").asText()
                                .substring(4)), "/metrics")).sum(VllmMetrics.total(VllmMetrics.PROMPT_TOKENS)));
            });
            Map<String, Double> byPod = new HashMap<>();
            for (JsonNode s : prometheus.query(QUERY)) {
                byPod.put(s.path("metric").path("pod").asText(), s.path("value").get(1).asDouble());
            }
            assertThat(byPod).containsOnlyKeys("pod-0", "pod-1", "pod-2");
            // increase() extrapolates towards the window's edges, so it reads a little above the pods' own counts
            byPod.forEach((pod, v) -> assertThat(v).as(pod).isBetween(direct.get(pod) * 0.9, direct.get(pod) * 1.6));
            double max = byPod.values().stream().mapToDouble(d -> d).max().orElseThrow();
            double min = byPod.values().stream().mapToDouble(d -> d).min().orElseThrow();
            assertThat(min).isPositive();
            assertThat(max / min).as("Prometheus' split %s (pods say %s)", byPod, direct).isLessThanOrEqualTo(1.5);
        }
    }

    /** The reference burst; returns each pod's prompt tokens as the pods count them. */
    private static Map<String, Double> burst(TestCluster cluster) throws Exception {
        Map<String, Double> before = new HashMap<>();
        for (int i = 0; i < 3; i++) {
            before.put("pod-" + i, cluster.http().metrics(cluster.podUrl(i, "/metrics")).sum(VllmMetrics.total(VllmMetrics.PROMPT_TOKENS)));
        }
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 1; i <= 30; i++) {
                String body = "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"Write one sentence about topic number "
                        + i + " in cloud computing.\",\"max_tokens\":20}";
                all.add(pool.submit(() -> assertThat(cluster.http().post(cluster.url("/v1/completions"), body).statusCode()).isEqualTo(200)));
            }
            for (Future<?> f : all) {
                f.get();
            }
        }
        Map<String, Double> delta = new HashMap<>();
        for (int i = 0; i < 3; i++) {
            delta.put("pod-" + i, cluster.http().metrics(cluster.podUrl(i, "/metrics")).sum(VllmMetrics.total(VllmMetrics.PROMPT_TOKENS))
                    - before.get("pod-" + i));
        }
        return delta;
    }
}
