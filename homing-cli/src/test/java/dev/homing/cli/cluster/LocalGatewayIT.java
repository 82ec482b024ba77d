package dev.homing.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.sim.engine.Preset;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code homing up --ext-proc}: clients talk to a stand-in for Envoy, which asks the router's ext_proc picker (TLS,
 * self-signed) where each request goes; the router's own HTTP proxy is off.
 */
class LocalGatewayIT {

    private static final String MODEL = "Qwen/Qwen2.5-0.5B-Instruct";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void requestsGoThroughThePickerAndComeBackAsThePodsAnswered() throws Exception {
        LocalCluster.Options options = new LocalCluster.Options(2, MODEL, Preset.byName("cpu-qwen2.5-0.5b"),
                "127.0.0.1", 0, 0, 0, 11, null, false, null).withExtProc(new LocalCluster.ExtProc(0, 0, true));
        try (LocalCluster c = LocalCluster.start(options);
             HttpClient http = HttpClient.newHttpClient()) {
            assertThat(c.router().port()).as("the router's HTTP proxy is off").isEqualTo(-1);
            assertThat(c.router().extProcPort()).isPositive();

            HttpResponse<String> completion = http.send(post(c, "/v1/completions",
                    "{\"model\":\"" + MODEL + "\",\"prompt\":\"Say hello\",\"max_tokens\":5}"),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(completion.statusCode()).isEqualTo(200);
            String pod = completion.headers().firstValue("x-homing-pod").orElseThrow();
            String served = completion.headers().firstValue("x-gateway-destination-endpoint").orElseThrow();
            assertThat(c.pods()).anySatisfy(p -> {
                assertThat(p.name()).isEqualTo(pod);
                assertThat(p.address()).isEqualTo(served);
            });
            assertThat(JSON.readTree(completion.body()).path("usage").path("completion_tokens").asInt()).isEqualTo(5);

            HttpResponse<InputStream> stream = http.send(post(c, "/v1/chat/completions", "{\"model\":\"" + MODEL
                    + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Count\"}],\"max_tokens\":30,"
                    + "\"ignore_eos\":true,\"stream\":true,\"stream_options\":{\"include_usage\":true}}"),
                    HttpResponse.BodyHandlers.ofInputStream());
            assertThat(stream.headers().firstValue("content-type")).hasValueSatisfying(
                    v -> assertThat(v).startsWith("text/event-stream"));
            List<String> events = new ArrayList<>();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    if (line.startsWith("data: ")) {
                        events.add(line.substring(6));
                    }
                }
            }
            assertThat(events.getLast()).isEqualTo("[DONE]");
            JsonNode usage = JSON.readTree(events.get(events.size() - 2)).path("usage");
            assertThat(usage.path("completion_tokens").asInt()).isEqualTo(30);

            HttpResponse<String> unknown = http.send(post(c, "/v1/completions",
                    "{\"model\":\"nope\",\"prompt\":\"x\"}"), HttpResponse.BodyHandlers.ofString());
            assertThat(unknown.statusCode()).isEqualTo(404);
            assertThat(JSON.readTree(unknown.body()).path("error").path("message").asText()).contains("nope");

            await().atMost(Duration.ofSeconds(10)).until(() -> c.router().pool().snapshot().endpoints().stream()
                    .allMatch(e -> e.inFlightRequests() == 0));
        }
    }

    @Test
    void whenTheFirstEndpointOfTheListIsDownTheNextServesAndThePickerIsToldSo(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("two-targets.yaml");
        Files.writeString(config, """
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                plugins:
                - type: no-hit-lru-scorer
                - type: max-score-picker
                  parameters:
                    maxNumOfEndpoints: 2
                schedulingProfiles:
                - name: default
                  plugins:
                  - pluginRef: no-hit-lru-scorer
                  - pluginRef: max-score-picker
                """);
        LocalCluster.Options options = new LocalCluster.Options(2, MODEL, Preset.byName("cpu-qwen2.5-0.5b"),
                "127.0.0.1", 0, 0, 0, 12, config, false, null).withExtProc(new LocalCluster.ExtProc(0, 0, true));
        try (LocalCluster c = LocalCluster.start(options);
             HttpClient http = HttpClient.newHttpClient()) {
            LocalCluster.Pod dead = c.pods().get(0);
            LocalCluster.Pod alive = c.pods().get(1);
            dead.server().close(); // its port now refuses connections; the picker does not know yet
            for (int i = 0; i < 6; i++) { // the newcomer spreader puts the dead pod first every other time
                HttpResponse<String> r = http.send(post(c, "/v1/completions", "{\"model\":\"" + MODEL
                        + "\",\"prompt\":\"Newcomer number " + i + "\",\"max_tokens\":3}"),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.headers().firstValue("x-gateway-destination-endpoint")).contains(alive.address());
                // x-homing-pod is the picker's own answer: it has moved the request to the pod that served
                assertThat(r.headers().firstValue("x-homing-pod")).contains(alive.name());
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> c.router().pool().snapshot().endpoints().stream()
                    .allMatch(e -> e.inFlightRequests() == 0));
        }
    }

    private static HttpRequest post(LocalCluster c, String path, String body) {
        return HttpRequest.newBuilder(URI.create(c.baseUrl() + path)).header("content-type", "application/json")
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }
}
