package dev.homing.router.flow;

import static dev.homing.bench.extproc.EnvoyMessages.post;
import static dev.homing.bench.extproc.EnvoyMessages.requestBody;
import static dev.homing.bench.extproc.EnvoyMessages.requestHeaders;
import static dev.homing.bench.extproc.EnvoyMessages.setHeaders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.bench.extproc.ExtProcCall;
import dev.homing.router.fixtures.HttpJson;
import dev.homing.router.fixtures.TestCluster;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * llm-d's legacy admission (no {@code flowControl} gate), in both data planes over real sockets: while the pool is
 * saturated a sheddable request (its objective's priority below 0) is refused at once with 429
 * {@code rejected-saturated}; a request of priority 0 goes to the pod all the same. (The profile names only its
 * scorer: a default profile would take the detector as a filter too, and refuse everyone at a full pod.)
 */
class LegacyAdmissionIT {

    static final String CONFIG = """
            apiVersion: llm-d.ai/v1alpha1
            kind: EndpointPickerConfig
            plugins:
            - type: queue-scorer
            - type: concurrency-detector
              parameters: {concurrencyMode: requests, maxConcurrency: 1}
            saturationDetector:
              pluginRef: concurrency-detector
            schedulingProfiles:
            - name: default
              plugins: [{pluginRef: queue-scorer}]
            """;

    private static FlowCluster flow;
    private static TestCluster cluster;
    private static ManagedChannel channel;
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        flow = FlowCluster.start("legacy-admission-it", CONFIG, FlowControlIT.OBJECTIVES, true);
        cluster = flow.cluster;
        channel = flow.channel;
    }

    @AfterAll
    static void stop() throws Exception {
        flow.close();
    }

    private static CompletableFuture<HttpResponse<String>> send(String objective, int maxTokens) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(cluster.url("/v1/completions")))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(FlowControlIT.body("p", maxTokens)));
        if (objective != null) {
            b.header("x-gateway-inference-objective", objective);
        }
        return CLIENT.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theProxyShedsSheddableRequestsOnlyWhileThePoolIsSaturated() throws Exception {
        assertThat(send("batch", 2).get().statusCode()).isEqualTo(200); // headroom: sheddable goes too
        CompletableFuture<HttpResponse<String>> blocker = send(null, 40);
        await().atMost(Duration.ofSeconds(5)).until(() -> cluster.routerInFlight() == 1);
        HttpResponse<String> shed = send("batch", 2).get();
        assertThat(shed.statusCode()).isEqualTo(429);
        assertThat(shed.headers().firstValue("x-llm-d-request-dropped-reason")).hasValue("rejected-saturated");
        assertThat(HttpJson.json(shed).path("error").path("message").asText())
                .startsWith("system saturated, sheddable request dropped");
        assertThat(blocker.isDone()).isFalse();
        CompletableFuture<HttpResponse<String>> standard = send(null, 2);
        CompletableFuture<HttpResponse<String>> critical = send("critical", 2);
        assertThat(standard.get().statusCode()).isEqualTo(200);
        assertThat(critical.get().statusCode()).isEqualTo(200);
        assertThat(blocker.get().statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(5)).until(() -> cluster.routerInFlight() == 0);
    }

    @Test
    void extProcTellsEnvoyToAnswer429ForASheddableRequestWhileSaturated() {
        byte[] body = FlowControlIT.body("x", 2).getBytes(StandardCharsets.UTF_8);
        try (ExtProcCall holder = ExtProcCall.open(channel); ExtProcCall shed = ExtProcCall.open(channel)) {
            holder.send(requestHeaders(post("/v1/completions", body.length), false));
            holder.send(requestBody(body, 0, body.length, true));
            assertThat(holder.next().hasRequestHeaders()).isTrue();
            Map<String, String> headers = post("/v1/completions", body.length);
            headers.put("x-gateway-inference-objective", "batch");
            shed.send(requestHeaders(headers, false));
            shed.send(requestBody(body, 0, body.length, true));
            ProcessingResponse r = shed.next();
            assertThat(r.hasImmediateResponse()).as(r.toString()).isTrue();
            assertThat(r.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(429);
            assertThat(setHeaders(r.getImmediateResponse().getHeaders()))
                    .containsEntry("x-llm-d-request-dropped-reason", "rejected-saturated");
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> cluster.routerInFlight() == 0);
    }
}
