package dev.homing.router.proxy;

import static dev.homing.router.fixtures.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.protocol.metrics.VllmMetrics;
import dev.homing.router.fixtures.TestCluster;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ProxyIT {

    private static final String MODEL = TestCluster.MODEL;
    private static TestCluster cluster;

    @BeforeAll
    static void start() {
        cluster = TestCluster.start(2);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @AfterEach
    void nothingLeftInFlight() {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> cluster.routerInFlight() == 0 && cluster.routerPendingPrefill() == 0);
    }

    @Test
    void completionIsForwardedAndTheResponseNamesThePod() {
        HttpResponse<String> res = cluster.http().post(cluster.url("/v1/completions"),
                "{\"model\":\"" + MODEL + "\",\"prompt\":\"Say hello\",\"max_tokens\":5}");
        assertThat(res.statusCode()).isEqualTo(200);
        String pod = res.headers().firstValue("x-homing-pod").orElseThrow();
        int index = Integer.parseInt(pod.substring("pod-".length()));
        assertThat(res.headers().firstValue("x-gateway-destination-endpoint"))
                .contains("127.0.0.1:" + cluster.pod(index).port());
        JsonNode body = json(res);
        assertThat(body.path("object").asText()).isEqualTo("text_completion");
        assertThat(body.path("usage").path("completion_tokens").asInt()).isEqualTo(5);
    }

    @Test
    void sseIsPassedThroughChunkByChunk() throws Exception {
        String body = "{\"model\":\"" + MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Count slowly\"}],"
                + "\"max_tokens\":150,\"ignore_eos\":true,\"stream\":true,\"stream_options\":{\"include_usage\":true}}";
        HttpResponse<InputStream> res = cluster.http().postStreaming(cluster.url("/v1/chat/completions"), body);
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(res.headers().firstValue("content-type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
        String pod = res.headers().firstValue("x-homing-pod").orElseThrow();
        int index = Integer.parseInt(pod.substring("pod-".length()));
        List<String> events = new ArrayList<>();
        boolean sawFirstWhileGenerating = false;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(res.body(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (!line.startsWith("data: ")) {
                    continue;
                }
                if (events.isEmpty()) {
                    // The first event reached us while the pod was still generating: nothing was buffered whole.
                    double running = cluster.http().metrics(cluster.podUrl(index, "/metrics"))
                            .latest(VllmMetrics.NUM_REQUESTS_RUNNING);
                    sawFirstWhileGenerating = running >= 1;
                }
                events.add(line.substring(6));
            }
        }
        assertThat(sawFirstWhileGenerating).isTrue();
        assertThat(events.get(events.size() - 1)).isEqualTo("[DONE]");
        assertThat(events).hasSizeGreaterThan(150);
        JsonNode usage = new com.fasterxml.jackson.databind.ObjectMapper().readTree(events.get(events.size() - 2)).path("usage");
        assertThat(usage.path("completion_tokens").asInt()).isEqualTo(150);
    }

    @Test
    void clientDisconnectMidStreamReleasesTheLoadAndAbortsOnThePod() throws Exception {
        String body = "{\"model\":\"" + MODEL + "\",\"prompt\":\"Tell a very long story\",\"max_tokens\":2000,"
                + "\"ignore_eos\":true,\"stream\":true}";
        HttpResponse<InputStream> res = cluster.http().postStreaming(cluster.url("/v1/completions"), body);
        String pod = res.headers().firstValue("x-homing-pod").orElseThrow();
        int index = Integer.parseInt(pod.substring("pod-".length()));
        try (InputStream in = res.body()) {
            assertThat(in.read(new byte[64])).isPositive();
            assertThat(cluster.routerInFlight()).isEqualTo(1);
            // The first chunk passed the router: the pod's prefill is over while the request still decodes.
            assertThat(cluster.routerPendingPrefill()).isZero();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.routerInFlight() == 0);
        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.http().metrics(cluster.podUrl(index, "/metrics"))
                .latest(VllmMetrics.NUM_REQUESTS_RUNNING) == 0);
    }

    @Test
    void modelsListsWhatThePodsServe() {
        JsonNode models = json(cluster.http().get(cluster.url("/v1/models")));
        assertThat(models.path("object").asText()).isEqualTo("list");
        assertThat(models.path("data")).hasSize(1);
        assertThat(models.path("data").get(0).path("id").asText()).isEqualTo(MODEL);
    }
}
