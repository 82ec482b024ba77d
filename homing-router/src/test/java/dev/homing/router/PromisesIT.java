package dev.homing.router;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.protocol.metrics.VllmMetrics;
import dev.homing.router.fixtures.TestCluster;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The two promises of the reference demo, through a real router in front of three simulated pods. */
class PromisesIT {

    private TestCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Map<Integer, Double> promptTokens() {
        Map<Integer, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            out.put(i, cluster.http().metrics(cluster.podUrl(i, "/metrics")).sum(VllmMetrics.total(VllmMetrics.PROMPT_TOKENS)));
        }
        return out;
    }

    private Map<Integer, Double> since(Map<Integer, Double> before) {
        Map<Integer, Double> now = promptTokens();
        now.replaceAll((k, v) -> v - before.get(k));
        return now;
    }

    private HttpResponse<String> complete(String prompt) {
        return cluster.http().post(cluster.url("/v1/completions"),
                "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"" + prompt + "\",\"max_tokens\":20}");
    }

    @Test
    void sixIdenticalRequestsAllLandOnOnePod() {
        cluster = TestCluster.start(3);
        String prompt = "You are a careful assistant. ".repeat(40) + "Summarise the plan above in one line.";
        Map<Integer, Double> before = promptTokens();
        List<String> pods = new ArrayList<>();
        long cached = 0;
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> res = complete(prompt);
            assertThat(res.statusCode()).isEqualTo(200);
            pods.add(res.headers().firstValue("x-homing-pod").orElseThrow());
            cached += dev.homing.router.fixtures.HttpJson.json(res).path("usage").path("prompt_tokens_details")
                    .path("cached_tokens").asLong();
        }
        assertThat(pods).containsOnly(pods.get(0));
        Map<Integer, Double> tokens = since(before);
        assertThat(tokens.values().stream().filter(t -> t > 0)).hasSize(1);
        assertThat(cached).as("repeats hit the pod's prefix cache").isPositive();
    }

    @Test
    void aBurstOfThirtyNewcomersIsSpreadOverEveryPod() throws Exception {
        // Scraped once, at the start: the spread is the router's own doing. A scrape landing mid-burst on a loaded
        // machine can catch one pod's transient queue (a request not yet seated), and the queue scorer (llm-d's
        // min-max formula) then shuns that pod until the next scrape, so the split would depend on the machine.
        cluster = TestCluster.start(3, b -> b, o -> o.with(x -> x.scrapeInterval = Duration.ofHours(1)));
        Map<Integer, Double> before = promptTokens();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> replies = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 1; i <= 30; i++) {
                String prompt = "Write one sentence about topic number " + i + " in cloud computing.";
                replies.add(pool.submit(() -> {
                    go.await();
                    return complete(prompt);
                }));
            }
            go.countDown();
            for (Future<HttpResponse<String>> f : replies) {
                assertThat(f.get().statusCode()).isEqualTo(200);
            }
        }
        Map<Integer, Double> tokens = since(before);
        double max = tokens.values().stream().mapToDouble(d -> d).max().orElseThrow();
        double min = tokens.values().stream().mapToDouble(d -> d).min().orElseThrow();
        assertThat(min).as("every pod worked: %s", tokens).isPositive();
        assertThat(max / min).as("busiest/idlest prompt tokens %s", tokens).isLessThanOrEqualTo(1.5);
    }
}
