package dev.homing.router.learned;

import static dev.homing.router.fixtures.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import dev.homing.router.fixtures.HttpJson;
import dev.homing.router.fixtures.RedisServerProcess;
import dev.homing.sim.engine.Preset;
import dev.homing.sim.http.SimPod;
import dev.homing.sim.http.SimPodConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * Two real router replicas on Homing's default (approximate) config, with {@code --redis}, in front of the same three
 * simulated pods: a prompt served through replica A is sent to the same pod by replica B, which learned where A put it
 * through Redis only (the pods publish no KV events, and metrics are scraped once). B's dry runs
 * ({@code POST /debug/schedule}, which writes nothing) are polled until B has applied A's pick.
 */
class ApproxReplicasIT {

    private static final String MODEL = "Qwen/Qwen2.5-0.5B-Instruct";
    private static final String POOL = "approx-replicas-it";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static RedisServerProcess redis;
    private static final List<SimPod> pods = new ArrayList<>();
    private static RouterServer a;
    private static RouterServer b;
    private static final HttpJson http = new HttpJson();

    @BeforeAll
    static void start() throws Exception {
        redis = RedisServerProcess.start();
        List<Endpoint> endpoints = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            SimPod pod = SimPod.start(SimPodConfig.builder().preset(Preset.byName("cpu-qwen2.5-0.5b"))
                    .model(MODEL).servedModelNames(List.of(MODEL)).podName("pod-" + i).seed(i).build());
            pods.add(pod);
            endpoints.add(new Endpoint("pod-" + i, "127.0.0.1", pod.port(), Map.of()));
        }
        a = router(endpoints, 1);
        b = router(endpoints, 2);
    }

    private static RouterServer router(List<Endpoint> endpoints, long seed) throws Exception {
        RouterServer r = RouterServer.start(RouterOptions.defaults(endpoints).with(o -> {
            o.port = 0;
            o.adminPort = 0;
            o.poolName = POOL;
            o.seed = seed;
            o.redisUrl = redis.url();
            o.scrapeInterval = Duration.ofHours(1);
            o.scrapeTimeout = Duration.ofSeconds(10); // the one scrape must not time out on a loaded machine
        }));
        await().atMost(WAIT).until(() -> r.pool().snapshot().endpoints().stream()
                .allMatch(e -> e.metrics().known() && r.catalog().status(e.name()).modelsKnown()));
        return r;
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {a, b}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // keep closing the rest
            }
        }
        pods.forEach(SimPod::close);
        http.close();
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void aPromptServedThroughReplicaAIsPulledHomeByReplicaB() {
        // one newcomer through B alone first: were the replicas' states their own, B's newcomer order would now differ
        // from A's, and B would place A's next newcomer elsewhere than A did
        String first = pod(complete(b, prompt("a first question for B alone", 6)));
        await().atMost(WAIT).until(() -> !target(a, prompt("a question A has not seen", 6)).equals(first));
        Set<String> homes = new HashSet<>();
        for (int k = 0; k < 6; k++) {
            String prompt = prompt("the ledger of harbour number " + k, 6);
            String home = pod(complete(a, prompt));
            homes.add(home);
            await().atMost(WAIT).until(() -> target(b, prompt).equals(home));
            assertThat(pod(complete(b, prompt))).as("prompt %d, served on %s via A", k, home).isEqualTo(home);
        }
        assertThat(homes).as("the prompts were spread, so B's agreement is not one pod's by default").hasSize(3);
        try (RedisClient look = RedisClient.create("127.0.0.1", redis.port())) {
            Set<String> streams = look.keys("homing:" + POOL + ":learned:*");
            assertThat(streams).as("one stream for the index, one for the newcomer order").hasSize(2)
                    .anyMatch(k -> k.contains(":learned:approx:")).anyMatch(k -> k.contains(":learned:newcomers:"))
                    .allSatisfy(k -> assertThat(look.xlen(k)).as(k).isPositive());
        }
    }

    private static String url(RouterServer r, String path) {
        return "http://127.0.0.1:" + r.port() + path;
    }

    private static String prompt(String topic, int sentences) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < sentences; i++) {
            s.append("Sentence ").append(i).append(" of notes on ").append(topic).append(" goes on a little. ");
        }
        return s.toString();
    }

    private static String body(String prompt) {
        try {
            return "{\"model\":\"" + MODEL + "\",\"prompt\":" + JSON.writeValueAsString(prompt) + ",\"max_tokens\":4}";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static HttpResponse<String> complete(RouterServer r, String prompt) {
        HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(url(r, "/v1/completions")))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body(prompt))).build());
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        return res;
    }

    private static String pod(HttpResponse<String> res) {
        return res.headers().firstValue("x-homing-pod").orElseThrow();
    }

    /** Where this replica would send the prompt now: a dry run, which records nothing. */
    private static String target(RouterServer r, String prompt) {
        return json(http.post("http://127.0.0.1:" + r.adminPort() + "/debug/schedule", body(prompt)))
                .path("target").path("pod").asText();
    }
}
