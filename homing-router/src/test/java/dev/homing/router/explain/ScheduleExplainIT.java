package dev.homing.router.explain;

import static dev.homing.router.fixtures.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.protocol.metrics.VllmMetrics;
import dev.homing.router.fixtures.TestCluster;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every decision can be explained: on the admin port without forwarding, or on the response of a real request. */
class ScheduleExplainIT {

    private static TestCluster cluster;
    private static final String PROMPT = "Explain the scheduling decision for this long and particular prompt. ".repeat(10);

    @BeforeAll
    static void start() {
        cluster = TestCluster.start(3, b -> b, o -> o.with(x -> x.explainForAll = true)); // see SecurityIT
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static String body() {
        return "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"" + PROMPT + "\",\"max_tokens\":4}";
    }

    private double podPromptTokens() {
        double sum = 0;
        for (int i = 0; i < 3; i++) {
            sum += cluster.http().metrics(cluster.podUrl(i, "/metrics")).sum(VllmMetrics.total(VllmMetrics.PROMPT_TOKENS));
        }
        return sum;
    }

    @Test
    void debugScheduleExplainsWithoutForwardingOrChangingState() {
        double before = podPromptTokens();
        JsonNode first = json(cluster.http().post(cluster.adminUrl("/debug/schedule"), body()));
        JsonNode second = json(cluster.http().post(cluster.adminUrl("/debug/schedule"), body()));

        assertThat(first.path("primaryProfile").asText()).isEqualTo("default");
        JsonNode profile = first.path("profiles").get(0);
        assertThat(profile.path("candidates")).hasSize(3);
        JsonNode c = profile.path("candidates").get(0);
        assertThat(c.path("scores").path("prefix-cache-scorer").path("weight").asDouble()).isEqualTo(3);
        assertThat(c.path("scores").path("predicted-ttft-scorer").path("weight").asDouble()).isEqualTo(5);
        double total = 0;
        for (JsonNode s : c.path("scores")) {
            assertThat(s.path("weighted").asDouble()).isEqualTo(s.path("score").asDouble() * s.path("weight").asDouble());
            total += s.path("weighted").asDouble();
        }
        assertThat(c.path("total").asDouble()).isCloseTo(total, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(profile.path("picked").get(0).asText()).isEqualTo(first.path("target").path("pod").asText());
        assertThat(first.path("prefix").path("totalBlocks").asInt()).isPositive();

        // Nothing was sent to a pod, nothing credited, nothing recorded: the second look sees no prefix anywhere
        // and the same pick (the tie rotation did not move).
        assertThat(podPromptTokens()).isEqualTo(before);
        assertThat(cluster.routerInFlight()).isZero();
        second.path("prefix").path("matchedBlocks").forEach(m -> assertThat(m.asInt()).isZero());
        assertThat(second.path("target").path("pod").asText()).isEqualTo(first.path("target").path("pod").asText());
    }

    @Test
    void chatBodiesAreExplainedAndBadOnesAreOpenAiErrors() {
        JsonNode chat = json(cluster.http().post(cluster.adminUrl("/debug/schedule"),
                "{\"model\":\"" + TestCluster.MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"));
        assertThat(chat.path("profiles").get(0).path("candidates")).hasSize(3);
        HttpResponse<String> bad = cluster.http().post(cluster.adminUrl("/debug/schedule"), "{\"prompt\":\"x\"}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(json(bad).path("error").path("param").asText()).isEqualTo("model");
    }

    @Test
    void explainHeaderCarriesTheDecisionOfARealRequest() throws Exception {
        HttpResponse<String> res = cluster.http().send(HttpRequest.newBuilder(URI.create(cluster.url("/v1/completions")))
                .header("Content-Type", "application/json").header("x-homing-explain", "true")
                .POST(HttpRequest.BodyPublishers.ofString(body())).build());
        assertThat(res.statusCode()).isEqualTo(200);
        JsonNode explain = new ObjectMapper().readTree(res.headers().firstValue("x-homing-explain").orElseThrow());
        String pod = res.headers().firstValue("x-homing-pod").orElseThrow();
        assertThat(explain.path("target").asText()).isEqualTo(pod);
        assertThat(explain.path("profiles").path("default").path("totals")).hasSize(3);
        assertThat(explain.path("profiles").path("default").path("scores").path(pod).has("prefix-cache-scorer")).isTrue();

        HttpResponse<String> plain = cluster.http().post(cluster.url("/v1/completions"), body());
        assertThat(plain.headers().firstValue("x-homing-explain")).isEmpty();
    }
}
