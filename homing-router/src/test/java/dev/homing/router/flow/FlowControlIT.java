package dev.homing.router.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.protocol.metrics.Sample;
import dev.homing.router.fixtures.HttpJson;
import dev.homing.router.fixtures.TestCluster;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Flow control through the HTTP proxy, over real sockets to a simulated pod. The pool is one pod that takes one
 * request at a time ({@code concurrency-detector}, {@code maxConcurrency: 1}), so while a long "blocker" runs every
 * other request waits in the router's queues, and leaves them in the order, and with the answers, llm-d's flow control
 * gives: strict priority, 429 when a band is full, 503 at the TTL, and a client that leaves takes its request out.
 */
class FlowControlIT {

    static final String CONFIG = """
            apiVersion: llm-d.ai/v1alpha1
            kind: EndpointPickerConfig
            featureGates: [flowControl]
            plugins:
            - type: queue-scorer
            - type: concurrency-detector
              parameters: {concurrencyMode: requests, maxConcurrency: 1}
            saturationDetector:
              pluginRef: concurrency-detector
            flowControl:
              defaultRequestTTL: 4s
              priorityBands:
              - priority: -1
                maxRequests: 2
            """;

    static final String OBJECTIVES = """
            apiVersion: inference.networking.x-k8s.io/v1alpha2
            kind: InferenceObjective
            metadata: {name: critical}
            spec: {priority: 10, poolRef: {name: homing}}
            ---
            apiVersion: inference.networking.x-k8s.io/v1alpha2
            kind: InferenceObjective
            metadata: {name: batch}
            spec: {priority: -1, poolRef: {name: homing}}
            """;

    private static FlowCluster flow;
    private static TestCluster cluster;
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        flow = FlowCluster.start("flow-it", CONFIG, OBJECTIVES, false);
        cluster = flow.cluster;
    }

    @AfterAll
    static void stop() throws Exception {
        flow.close();
    }

    @AfterEach
    void idle() {
        await().atMost(Duration.ofSeconds(20)).until(() -> cluster.routerInFlight() == 0 && queued() == 0);
    }

    static String body(String name, int maxTokens) {
        return "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"" + name + " says hello\",\"max_tokens\":"
                + maxTokens + ",\"ignore_eos\":true}";
    }

    private static CompletableFuture<HttpResponse<String>> send(String name, String objective, int maxTokens) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(cluster.url("/v1/completions")))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body(name, maxTokens)));
        if (objective != null) {
            b.header("x-gateway-inference-objective", objective);
        }
        return CLIENT.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static double metric(String name, String label, String value) {
        HttpJson http = cluster.http();
        return http.metrics(cluster.adminUrl("/metrics")).samples(name).stream()
                .filter(s -> label == null || value.equals(s.labels().get(label))).mapToDouble(Sample::value).sum();
    }

    private static int queued() {
        return (int) metric("inference_extension_flow_control_queue_size", null, null);
    }

    /** Starts a long request that holds the pool's one slot, and waits until it has it. */
    private static CompletableFuture<HttpResponse<String>> blocker(int maxTokens) {
        CompletableFuture<HttpResponse<String>> b = send("blocker", null, maxTokens);
        await().atMost(Duration.ofSeconds(5)).until(() -> cluster.routerInFlight() == 1);
        return b;
    }

    private static void awaitQueued(int n) {
        await().atMost(Duration.ofSeconds(5)).until(() -> queued() == n);
    }

    @Test
    void waitingRequestsLeaveByPriorityThenArrival() throws Exception {
        CompletableFuture<HttpResponse<String>> blocker = blocker(40);
        List<String> done = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
        String[][] arrivals = {{"batch1", "batch"}, {"std1", null}, {"crit1", "critical"}, {"std2", null},
                {"crit2", "critical"}};
        for (int i = 0; i < arrivals.length; i++) {
            String name = arrivals[i][0];
            all.add(send(name, arrivals[i][1], 4).whenComplete((r, e) -> done.add(name)));
            awaitQueued(i + 1); // arrival order is the order sent
        }
        assertThat(blocker.get().statusCode()).isEqualTo(200);
        for (CompletableFuture<HttpResponse<String>> f : all) {
            assertThat(f.get().statusCode()).as(f.get().body()).isEqualTo(200);
        }
        assertThat(done).containsExactly("crit1", "crit2", "std1", "std2", "batch1");
        assertThat(metric("inference_extension_flow_control_request_queue_duration_seconds_count", "outcome",
                "Dispatched")).isGreaterThanOrEqualTo(6);
    }

    @Test
    void aFullBandRefusesWithA429AndTheOthersStillGo() throws Exception {
        CompletableFuture<HttpResponse<String>> blocker = blocker(30);
        CompletableFuture<HttpResponse<String>> b1 = send("b1", "batch", 2);
        CompletableFuture<HttpResponse<String>> b2 = send("b2", "batch", 2);
        awaitQueued(2);
        HttpResponse<String> third = send("b3", "batch", 2).get();
        assertThat(third.statusCode()).isEqualTo(429);
        assertThat(third.headers().firstValue("x-llm-d-request-dropped-reason")).hasValue("rejected-saturated");
        assertThat(HttpJson.json(third).path("error").path("message").asText())
                .startsWith("request rejected by flow control");
        assertThat(blocker.get().statusCode()).isEqualTo(200);
        assertThat(b1.get().statusCode()).isEqualTo(200);
        assertThat(b2.get().statusCode()).isEqualTo(200);
    }

    @Test
    void aRequestWaitingPastItsTtlIsAnswered503() throws Exception {
        CompletableFuture<HttpResponse<String>> blocker = blocker(300); // about 6 s on the CPU preset
        long t0 = System.nanoTime();
        HttpResponse<String> late = send("late", null, 2).get();
        double waited = (System.nanoTime() - t0) / 1e9;
        assertThat(late.statusCode()).isEqualTo(503);
        assertThat(late.headers().firstValue("x-llm-d-request-dropped-reason")).hasValue("rejected-ttl-expired");
        assertThat(HttpJson.json(late).path("error").path("message").asText())
                .startsWith("request timed out in queue");
        assertThat(waited).isBetween(3.9, 6.0);
        assertThat(blocker.isDone()).isFalse(); // the TTL, not the pod's slot freeing, ended it
        assertThat(blocker.get().statusCode()).isEqualTo(200);
    }

    @Test
    void aClientThatLeavesTakesItsRequestOutOfTheQueue() throws Exception {
        double cancelled = metric("inference_extension_flow_control_request_queue_duration_seconds_count", "outcome",
                "EvictedContextCancelled");
        CompletableFuture<HttpResponse<String>> blocker = blocker(60);
        byte[] body = body("leaver", 2).getBytes(StandardCharsets.UTF_8);
        URI api = URI.create(cluster.url("/"));
        try (Socket s = new Socket(api.getHost(), api.getPort())) {
            OutputStream out = s.getOutputStream();
            out.write(("POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            awaitQueued(1);
        } // the client leaves while its request waits
        awaitQueued(0);
        await().atMost(Duration.ofSeconds(5)).until(() -> metric(
                "inference_extension_flow_control_request_queue_duration_seconds_count", "outcome",
                "EvictedContextCancelled") == cancelled + 1);
        assertThat(blocker.get().statusCode()).isEqualTo(200);
        // the leaver was never placed, so holds nothing once the blocker's lease is released (just after its answer)
        await().atMost(Duration.ofSeconds(5)).until(() -> cluster.routerInFlight() == 0);
    }

    @Test
    void withNothingWaitingAndHeadroomARequestGoesAtOnce() throws Exception {
        double immediate = metric("inference_extension_flow_control_request_enqueue_duration_seconds_count",
                "outcome", "Dispatched");
        HttpResponse<String> r = send("alone", "batch", 2).get();
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(metric("inference_extension_flow_control_request_enqueue_duration_seconds_count", "outcome",
                "Dispatched")).isEqualTo(immediate + 1);
    }
}
