package dev.homing.router.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.core.config.DefaultConfig;
import dev.homing.protocol.gateway.GatewayHeaders;
import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import dev.homing.router.discovery.StaticEndpoints;
import dev.homing.router.fixtures.HttpJson;
import dev.homing.router.fixtures.TestCluster;
import dev.homing.sim.engine.Preset;
import dev.homing.sim.http.SimPod;
import dev.homing.sim.http.SimPodConfig;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * llm-d's P/D config in front of endpoints labelled as {@code homing serve --endpoints
 * 'p=HOST:PORT;llm-d.ai/role=prefill,...' --config pd.yaml} labels them (the same parser), on real pods: the request
 * goes to a decode pod, which is told the prefill pod's address when the decider disaggregates and not otherwise; a
 * client's copies of the router's own headers never reach a pod.
 */
class DisaggregatedRoutingIT {

    private static final String MODEL = TestCluster.MODEL;
    /** Forged by the client: each must be dropped, and the router's own value (if any) sent instead. */
    private static final Map<String, String> FORGED = forged();

    @TempDir
    static Path dir;

    private static SimPod prefill;
    private static Map<String, SimPod> decode;
    private static RouterServer router;
    private static HttpJson http;

    @BeforeAll
    static void start() throws Exception {
        prefill = pod("prefill-0");
        decode = new LinkedHashMap<>();
        decode.put("decode-0", pod("decode-0"));
        decode.put("decode-1", pod("decode-1"));
        String spec = "prefill-0=127.0.0.1:" + prefill.port() + ";llm-d.ai/role=prefill,"
                + "decode-0=127.0.0.1:" + decode.get("decode-0").port() + ";llm-d.ai/role=decode,"
                + "decode-1=127.0.0.1:" + decode.get("decode-1").port() + ";llm-d.ai/role=decode";
        Path config = Files.writeString(dir.resolve("pd.yaml"), DefaultConfig.pdText());
        router = RouterServer.start(RouterOptions.defaults(StaticEndpoints.parse(spec)).with(o -> {
            o.port = 0;
            o.adminPort = 0;
            o.configFile = config;
        }));
        http = new HttpJson();
        await().atMost(Duration.ofSeconds(10)).until(() -> router.pool().snapshot().endpoints().stream()
                .allMatch(e -> e.metrics().known() && router.catalog().status(e.name()).modelsKnown()));
    }

    @AfterAll
    static void stop() {
        if (router != null) {
            router.close();
        }
        if (http != null) {
            http.close();
        }
        if (prefill != null) {
            prefill.close();
        }
        if (decode != null) {
            decode.values().forEach(SimPod::close);
        }
    }

    private static SimPod pod(String name) {
        return SimPod.start(SimPodConfig.builder().preset(Preset.byName("cpu-qwen2.5-0.5b")).model(MODEL)
                .servedModelNames(List.of(MODEL)).podName(name).seed(name.hashCode()).build());
    }

    private static Map<String, String> forged() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String h : GatewayHeaders.ROUTER_OWNED) {
            m.put(h, "203.0.113.9:666");
        }
        return m;
    }

    @Test
    void aLongUncachedPromptGoesToADecodePodThatIsToldThePrefillPod() {
        String prompt = "Disaggregate me: " + "the quick brown fox jumps over the lazy dog, again and again. ".repeat(8);
        Map<String, String> seen = complete(prompt);
        assertThat(seen).containsEntry(GatewayHeaders.PREFILLER_HOST_PORT, "127.0.0.1:" + prefill.port());
        assertThat(prefill.recentRequestHeaders()).as("the router only names the prefiller; it sends it nothing")
                .isEmpty();
    }

    @Test
    void aShortPromptIsNotWorthDisaggregatingAndCarriesNoPrefiller() {
        Map<String, String> seen = complete("Hi");
        assertThat(seen).doesNotContainKey(GatewayHeaders.PREFILLER_HOST_PORT);
    }

    @Test
    void aPromptTheDecodePodAlreadyHoldsIsNotDisaggregatedAgain() {
        String prompt = "Held already: " + "a long system prompt that every request of this user repeats. ".repeat(8);
        assertThat(complete(prompt)).containsKey(GatewayHeaders.PREFILLER_HOST_PORT);
        assertThat(complete(prompt)).doesNotContainKey(GatewayHeaders.PREFILLER_HOST_PORT);
    }

    /**
     * Sends a completion with every router-owned header forged, checks it was served by a decode pod and that no
     * forged value reached it, and returns the headers that pod received.
     */
    private static Map<String, String> complete(String prompt) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + router.port() + "/v1/completions"))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + MODEL + "\",\"prompt\":\"" + prompt
                        + "\",\"max_tokens\":3}"));
        FORGED.forEach(b::header);
        HttpResponse<String> res = http.send(b.build());
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        String pod = res.headers().firstValue("x-homing-pod").orElseThrow();
        assertThat(decode).as("served by a decode pod").containsKey(pod);
        Map<String, String> seen = decode.get(pod).lastRequestHeaders();
        for (String h : GatewayHeaders.ROUTER_OWNED) {
            // the pod's record joins repeated values with commas: a forged value forwarded beside the router's shows
            assertThat(seen.getOrDefault(h, "")).as(h).doesNotContain(FORGED.get(h));
        }
        assertThat(seen).doesNotContainKeys(GatewayHeaders.DESTINATION_ENDPOINT, GatewayHeaders.ENCODER_HOSTS_PORTS,
                GatewayHeaders.DATA_PARALLEL_HOST_PORT, GatewayHeaders.DESTINATION_ENDPOINT_SERVED,
                GatewayHeaders.DESTINATION_ENDPOINT_SUBSET);
        return seen;
    }
}
