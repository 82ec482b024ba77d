package dev.homing.router.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.router.fixtures.TestCluster;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Eviction ({@code enableEviction: true}) through the HTTP proxy: a sheddable request streaming on the pool's one slot
 * is stopped when a more important request has to wait for it; its client reads an error event ending the stream, the
 * important request is served, and no load is left behind.
 */
class EvictionIT {

    @Test
    void aStreamingSheddableRequestIsEvictedForAnImportantOne() throws Exception {
        try (FlowCluster flow = FlowCluster.start("eviction-it", FlowControlIT.CONFIG
                .replace("  defaultRequestTTL: 4s\n", "  defaultRequestTTL: 20s\n  enableEviction: true\n"),
                FlowControlIT.OBJECTIVES, false)) {
            TestCluster cluster = flow.cluster;
            HttpClient client = HttpClient.newHttpClient();
            assertThat(cluster.router().config().flowControl().eviction()).isTrue();
            String stream = "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"batch job\",\"max_tokens\":400,"
                    + "\"ignore_eos\":true,\"stream\":true}";
            HttpResponse<InputStream> batch = client.send(HttpRequest.newBuilder(URI.create(cluster.url(
                    "/v1/completions"))).header("content-type", "application/json")
                    .header("x-gateway-inference-objective", "batch")
                    .POST(HttpRequest.BodyPublishers.ofString(stream)).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            assertThat(batch.statusCode()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(5)).until(() -> cluster.routerInFlight() == 1);
            CompletableFuture<HttpResponse<String>> critical = client.sendAsync(HttpRequest.newBuilder(URI.create(
                    cluster.url("/v1/completions"))).header("content-type", "application/json")
                    .header("x-gateway-inference-objective", "critical")
                    .POST(HttpRequest.BodyPublishers.ofString(FlowControlIT.body("vip", 4))).build(),
                    HttpResponse.BodyHandlers.ofString());
            List<String> lines = new ArrayList<>();
            long t0 = System.nanoTime();
            try (BufferedReader in = new BufferedReader(new InputStreamReader(batch.body(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (!line.isEmpty()) {
                        lines.add(line);
                    }
                }
            }
            double streamed = (System.nanoTime() - t0) / 1e9;
            assertThat(lines).last().satisfies(l -> assertThat(l).contains("request evicted by flow control"));
            assertThat(lines).noneMatch(l -> l.equals("data: [DONE]"));
            assertThat(streamed).isLessThan(5.0); // 400 tokens take about 8 s on this preset
            HttpResponse<String> served = critical.get();
            assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(5)).until(() -> cluster.routerInFlight() == 0);
        }
    }
}
