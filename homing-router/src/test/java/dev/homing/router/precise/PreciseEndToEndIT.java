package dev.homing.router.precise;

import static dev.homing.router.fixtures.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.core.config.DefaultConfig;
import dev.homing.protocol.metrics.MetricsText;
import dev.homing.router.fixtures.Decisions;
import dev.homing.router.fixtures.PodTokenizer;
import dev.homing.router.fixtures.TestCluster;
import dev.homing.sim.engine.CostModel;
import dev.homing.sim.engine.Preset;
import dev.homing.sim.kvevents.KvEventsConfig;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Precise routing end to end, as {@code homing up --precise} runs it: three simulated vLLM pods publish their KV-cache
 * events (vLLM's legacy arrays, integer hashes, a replay socket each), the router dials every publisher and routes by
 * the shipped precise config. What the index holds is read through {@code POST /debug/schedule}; what the pods hold
 * through their {@code usage.prompt_tokens_details.cached_tokens}. The pods' KV caches are tiny (40 blocks) so that a
 * few prompts evict.
 */
class PreciseEndToEndIT {

    private static final String MODEL = TestCluster.MODEL;
    private static final int BLOCKS = 40;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    private static TestCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        Path config = Files.writeString(dir.resolve("precise.yaml"), DefaultConfig.preciseText());
        AtomicInteger n = new AtomicInteger();
        cluster = TestCluster.start(3,
                pod -> pod.engine(Preset.CPU_QWEN2_5_0_5B.engine().withNumGpuBlocks(BLOCKS)
                                .withCost(CostModel.simple(0, 20_000, 2_000_000, 0)))
                        .kvEvents(KvEventsConfig.zmq("tcp://127.0.0.1:*").withReplayEndpoint("tcp://127.0.0.1:*")
                                .withTopic("kv@pod-" + n.getAndIncrement() + "@" + MODEL)),
                (options, pods) -> options.with(o -> {
                    o.configFile = config;
                    o.tokenSource = new PodTokenizer(() -> pods.getFirst().baseUrl());
                    o.explainForAll = true;
                }));
        cluster.awaitKvEvents();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void requestsGoHomeToThePodWhoseEventsSayItHoldsThePrefix() {
        String prompt = prompt("the lighthouse keeper's logbook", 7);
        int blocks = tokens(prompt) / 16;
        assertThat(blocks).isBetween(4, 20);

        HttpResponse<String> first = complete(prompt, Map.of());
        String home = first.headers().firstValue("x-homing-pod").orElseThrow();
        // The pod's BlockStored events reach the index: it holds every full block of the prompt, nobody else any.
        await().atMost(WAIT).until(() -> matched(prompt).equals(only(home, blocks)));

        for (int i = 0; i < 5; i++) {
            HttpResponse<String> again = complete(prompt, Map.of());
            assertThat(again.headers().firstValue("x-homing-pod")).contains(home);
            assertThat(cachedTokens(again)).as("the pod really had the prefix").isEqualTo(blocks * 16L);
        }
        assertThat(matched(prompt)).isEqualTo(only(home, blocks));
        MetricsText m = cluster.http().metrics(cluster.adminUrl("/metrics"));
        assertThat(m.sum("homing_kv_events_applied_total")).isPositive();
        assertThat(m.sum("homing_precise_index_size")).isGreaterThanOrEqualTo(blocks);
        assertThat(m.sum("homing_kv_events_malformed_total")).isZero();
        assertThat(m.sum("homing_kv_events_batches_lost_total")).isZero();
    }

    @Test
    void afterAPrefixCacheResetTheNextRequestIsCold() {
        String prompt = prompt("a field guide to lichens", 6);
        int blocks = tokens(prompt) / 16;
        String home = complete(prompt, Map.of()).headers().firstValue("x-homing-pod").orElseThrow();
        await().atMost(WAIT).until(() -> matched(prompt).equals(only(home, blocks)));

        int pod = Integer.parseInt(home.substring("pod-".length()));
        // The request has ended; the pod frees its blocks a step later, and refuses a reset until then.
        await().atMost(WAIT).until(() -> cluster.http().post(cluster.podUrl(pod, "/reset_prefix_cache"), "")
                .statusCode() == 200);
        await().atMost(WAIT).until(() -> matched(prompt).equals(only(home, 0)));

        HttpResponse<String> cold = complete(prompt, Map.of("x-homing-explain", "true"));
        assertThat(cachedTokens(cold)).isZero();
        JsonNode explain = explain(cold);
        String target = explain.path("target").asText();
        JsonNode scores = explain.path("profiles").path("default").path("scores");
        double bestSpread = 0;
        for (JsonNode s : scores) {
            assertThat(s.path("prefix-cache-scorer").asDouble()).as("no pod holds the prompt").isZero();
            bestSpread = Math.max(bestSpread, s.path("no-hit-lru-scorer").asDouble());
        }
        assertThat(scores.path(target).path("no-hit-lru-scorer").asDouble())
                .as("a cold request is placed by the newcomer spreader").isEqualTo(bestSpread);
        assertThat(cluster.http().metrics(cluster.adminUrl("/metrics")).samples("homing_kv_events_applied_total")
                .stream().filter(x -> home.equals(x.label("pod"))).mapToDouble(x -> x.value()).sum()).isPositive();
    }

    @Test
    void evictionsOnATinyKvCacheMoveRequestsAway() {
        String prompt = prompt("the tide tables of a small harbour", 8);
        int blocks = tokens(prompt) / 16;
        String home = complete(prompt, Map.of()).headers().firstValue("x-homing-pod").orElseThrow();
        int pod = Integer.parseInt(home.substring("pod-".length()));
        await().atMost(WAIT).until(() -> matched(prompt).equals(only(home, blocks)));

        // Other clients' prompts fill the home pod's 39 usable blocks; vLLM evicts the least recently used first.
        int fillers = 0;
        while (matched(prompt).get(home) > 0) {
            assertThat(fillers).as("prompts needed to evict").isLessThan(12);
            HttpResponse<String> r = cluster.http().post(cluster.podUrl(pod, "/v1/completions"),
                    body(prompt("filler number " + fillers + " about something else entirely", 8), 1));
            assertThat(r.statusCode()).isEqualTo(200);
            fillers++;
            int f = fillers;
            await().atMost(WAIT).until(() -> f < 3 || matched(prompt).get(home) < blocks);
        }
        assertThat(matched(prompt)).isEqualTo(only(home, 0));

        HttpResponse<String> again = complete(prompt, Map.of("x-homing-explain", "true"));
        assertThat(cachedTokens(again)).isZero();
        for (JsonNode s : explain(again).path("profiles").path("default").path("scores")) {
            assertThat(s.path("prefix-cache-scorer").asDouble()).as("no pod is preferred for the evicted prompt")
                    .isZero();
        }
        assertThat(cluster.http().metrics(cluster.adminUrl("/metrics")).sum("homing_kv_events_batches_lost_total"))
                .isZero();
    }

    private static String prompt(String topic, int sentences) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < sentences; i++) {
            b.append("Sentence ").append(i).append(" of notes on ").append(topic).append(" goes on a little. ");
        }
        return b.toString();
    }

    private static String body(String prompt, int maxTokens) {
        return "{\"model\":\"" + MODEL + "\",\"prompt\":" + quote(prompt) + ",\"max_tokens\":" + maxTokens + "}";
    }

    private static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static HttpResponse<String> complete(String prompt, Map<String, String> headers) {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(cluster.url("/v1/completions")))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body(prompt, 4)));
        headers.forEach(r::header);
        HttpResponse<String> res = cluster.http().send(r.build());
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        return res;
    }

    private static int tokens(String prompt) {
        return json(cluster.http().post(cluster.podUrl(0, "/tokenize"),
                "{\"model\":\"" + MODEL + "\",\"prompt\":" + quote(prompt) + "}")).path("count").asInt();
    }

    private static long cachedTokens(HttpResponse<String> res) {
        return json(res).path("usage").path("prompt_tokens_details").path("cached_tokens").asLong(0);
    }

    private static JsonNode explain(HttpResponse<String> res) {
        try {
            return JSON.readTree(res.headers().firstValue("x-homing-explain").orElseThrow());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Blocks of the prompt the index says each pod holds. */
    private static Map<String, Integer> matched(String prompt) {
        return Decisions.matchedBlocks(json(cluster.http().post(cluster.adminUrl("/debug/schedule"), body(prompt, 4))));
    }

    private static Map<String, Integer> only(String pod, int blocks) {
        return Decisions.only(pod, blocks, 3);
    }
}
