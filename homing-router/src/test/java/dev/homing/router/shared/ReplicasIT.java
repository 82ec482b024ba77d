package dev.homing.router.shared;

import static dev.homing.router.fixtures.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.protocol.fixtures.LogCapture;
import dev.homing.router.RouterServer;
import dev.homing.router.fixtures.Decisions;
import dev.homing.router.fixtures.HttpJson;
import dev.homing.router.fixtures.PreciseReplicas;
import dev.homing.router.fixtures.RedisServerProcess;
import dev.homing.sim.http.SimPod;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;

/**
 * Two router replicas in front of the same three simulated pods, sharing one real redis-server. Only replica A
 * subscribes to the pods' KV events (B's subscriber is bound where no pod publishes); both route by the shipped
 * precise config. Decisions are compared through {@code x-homing-pod} and {@code POST /debug/schedule}. Metrics are
 * scraped once at start and then not for an hour, so that what spreads load between replicas is the shared in-flight
 * count, not a fresh scrape.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicasIT {

    private static final String MODEL = "Qwen/Qwen2.5-0.5B-Instruct";
    private static final String POOL = "replicas-it";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    private static PreciseReplicas replicas;
    private static RedisServerProcess redis;
    private static final List<SimPod> pods = new ArrayList<>();
    private static RouterServer a;
    private static RouterServer b;
    private static final HttpJson http = new HttpJson();

    @BeforeAll
    static void start() throws Exception {
        replicas = PreciseReplicas.start(dir, POOL, 20_000_000, o -> {
            o.scrapeInterval = Duration.ofHours(1);
            o.scrapeTimeout = Duration.ofSeconds(10); // the one scrape must not time out on a loaded machine
        });
        redis = replicas.redis;
        pods.addAll(replicas.pods);
        a = replicas.a;
        b = replicas.b;
    }

    @AfterAll
    static void stop() {
        if (replicas != null) {
            replicas.close();
        }
        http.close();
    }

    @Test
    @Order(1)
    void fedAlternatelyBothReplicasSendTheSamePromptToTheSamePod() {
        for (int k = 0; k < 4; k++) {
            RouterServer first = k % 2 == 0 ? a : b;
            String prompt = prompt("the ledger of harbour number " + k, 6);
            int blocks = tokens(prompt) / 16;
            assertThat(blocks).isBetween(4, 20);
            String home = pod(complete(first, prompt, 4));
            // The home pod's events reach A's subscriber, A's index writes them to Redis, and B reads them there.
            await().atMost(WAIT).until(() -> matched(a, prompt).equals(only(home, blocks))
                    && matched(b, prompt).equals(only(home, blocks)));
            for (int i = 0; i < 6; i++) {
                RouterServer r = i % 2 == 0 ? b : a;
                assertThat(pod(complete(r, prompt, 4))).as("request %d of prompt %d", i, k).isEqualTo(home);
                assertThat(schedule(r, prompt).path("target").path("pod").asText()).isEqualTo(home);
            }
        }
        for (int i = 0; i < pods.size(); i++) {
            assertThat(b.kvEvents().batchesTaken("pod-" + i)).as("B took no event: it learned through Redis").isZero();
        }
    }

    @Test
    @Order(2)
    void coldRequestsSplitOverBothReplicasSpreadOverThePods() throws Exception {
        List<InputStream> open = new ArrayList<>();
        Map<String, Integer> perPod = new TreeMap<>();
        List<String> order = new ArrayList<>();
        int[] sent = new int[2];
        try {
            for (int i = 0; i < 6; i++) {
                int via = i % 2;
                RouterServer r = via == 0 ? a : b;
                RouterServer other = via == 0 ? b : a;
                HttpResponse<InputStream> res = http.postStreaming(url(r, "/v1/completions"), "{\"model\":\"" + MODEL
                        + "\",\"prompt\":" + quote(i + " " + prompt("a cold question number " + i, 3)) // apart from the first block
                        + ",\"max_tokens\":1500,\"ignore_eos\":true,\"stream\":true}");
                assertThat(res.statusCode()).isEqualTo(200);
                open.add(res.body());
                String pod = res.headers().firstValue("x-homing-pod").orElseThrow();
                order.add(pod);
                perPod.merge(pod, 1, Integer::sum);
                sent[via]++;
                int expected = sent[via];
                // The next request, on the other replica, is placed once that replica counts this one.
                await().atMost(WAIT).until(() -> sharedInFlight(other) == expected);
            }
            assertThat(order.subList(0, 3)).as("the first three, on alternate replicas").doesNotHaveDuplicates();
            assertThat(perPod).containsExactlyInAnyOrderEntriesOf(Map.of("pod-0", 2, "pod-1", 2, "pod-2", 2));
        } finally {
            for (InputStream in : open) {
                in.close(); // the client goes away: the routers release the requests and the pods abort them
            }
        }
        await().atMost(WAIT).until(() -> sharedInFlight(a) == 0 && sharedInFlight(b) == 0);
    }

    @Test
    @Order(3)
    void withRedisKilledBothReplicasKeepServingAndLogOnceThenShareAgainWhenItReturns() throws Exception {
        try (LogCapture log = LogCapture.of(SharedRedis.class)) {
            redis.kill();
            await().atMost(WAIT).until(() -> redisUp(a) == 0 && redisUp(b) == 0);
            for (int i = 0; i < 10; i++) {
                RouterServer r = i % 2 == 0 ? a : b;
                HttpResponse<String> res = complete(r, prompt("served while Redis is away, number " + i, 5), 4);
                assertThat(res.statusCode()).isEqualTo(200);
            }
            assertThat(metric(a, "homing_redis_fallbacks_total")).isPositive();
            assertThat(metric(b, "homing_redis_fallbacks_total")).isPositive();
            assertThat(log.warnings()).as("one warning per replica for the whole outage").hasSize(2);

            redis.restart();
            await().atMost(WAIT).until(() -> redisUp(a) == 1 && redisUp(b) == 1);
            try (RedisClient look = RedisClient.create("127.0.0.1", redis.port())) {
                await().atMost(WAIT).until(() -> {
                    var replicas = look.smembers("homing:" + POOL + ":load:replicas");
                    return replicas.size() == 2 && replicas.stream()
                            .allMatch(id -> look.exists("homing:" + POOL + ":load:hb:" + id));
                });
            }
            // In-flight counts flow again: a long request through A is counted by B.
            HttpResponse<InputStream> longOne = http.postStreaming(url(a, "/v1/completions"), "{\"model\":\"" + MODEL
                    + "\",\"prompt\":" + quote(prompt("after the outage", 3))
                    + ",\"max_tokens\":1500,\"ignore_eos\":true,\"stream\":true}");
            try (InputStream in = longOne.body()) {
                assertThat(longOne.statusCode()).isEqualTo(200);
                await().atMost(WAIT).until(() -> sharedInFlight(b) == 1);
            }
            // And the shared index: a prompt placed through B is known to A through Redis once its events arrive.
            String prompt = prompt("the almanac kept after the outage", 6);
            int blocks = tokens(prompt) / 16;
            String home = pod(complete(b, prompt, 4));
            await().atMost(WAIT).until(() -> matched(b, prompt).equals(only(home, blocks)));
            assertThat(pod(complete(a, prompt, 4))).isEqualTo(home);
            assertThat(log.warnings()).as("still one per replica").hasSize(2);
            assertThat(log.messages(Level.INFO)).filteredOn(m -> m.contains("reachable again")).hasSize(2);
        }
    }

    private static String url(RouterServer r, String path) {
        return "http://127.0.0.1:" + r.port() + path;
    }

    private static String adminUrl(RouterServer r, String path) {
        return "http://127.0.0.1:" + r.adminPort() + path;
    }

    private static double metric(RouterServer r, String name) {
        return http.metrics(adminUrl(r, "/metrics")).sum(name);
    }

    private static double redisUp(RouterServer r) {
        return metric(r, "homing_redis_up");
    }

    /** Requests the other replicas have in flight, as this one counts them. */
    private static int sharedInFlight(RouterServer r) {
        return (int) metric(r, "homing_shared_inflight_requests");
    }

    private static String prompt(String topic, int sentences) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < sentences; i++) {
            s.append("Sentence ").append(i).append(" of notes on ").append(topic).append(" goes on a little. ");
        }
        return s.toString();
    }

    private static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String body(String prompt, int maxTokens) {
        return "{\"model\":\"" + MODEL + "\",\"prompt\":" + quote(prompt) + ",\"max_tokens\":" + maxTokens + "}";
    }

    private static HttpResponse<String> complete(RouterServer r, String prompt, int maxTokens) {
        HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(url(r, "/v1/completions")))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body(prompt, maxTokens))).build());
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        return res;
    }

    private static String pod(HttpResponse<String> res) {
        return res.headers().firstValue("x-homing-pod").orElseThrow();
    }

    private static JsonNode schedule(RouterServer r, String prompt) {
        return json(http.post(adminUrl(r, "/debug/schedule"), body(prompt, 4)));
    }

    /** Blocks of the prompt each pod holds, as this replica's index says. */
    private static Map<String, Integer> matched(RouterServer r, String prompt) {
        return Decisions.matchedBlocks(schedule(r, prompt));
    }

    private static Map<String, Integer> only(String pod, int blocks) {
        return Decisions.only(pod, blocks, 3);
    }

    private static int tokens(String prompt) {
        return json(http.post(pods.getFirst().baseUrl() + "/tokenize",
                "{\"model\":\"" + MODEL + "\",\"prompt\":" + quote(prompt) + "}")).path("count").asInt();
    }
}
