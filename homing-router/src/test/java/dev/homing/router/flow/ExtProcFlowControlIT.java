package dev.homing.router.flow;

import static dev.homing.bench.extproc.EnvoyMessages.post;
import static dev.homing.bench.extproc.EnvoyMessages.requestBody;
import static dev.homing.bench.extproc.EnvoyMessages.requestHeaders;
import static dev.homing.bench.extproc.EnvoyMessages.setHeaders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.bench.extproc.EnvoyMessages;
import dev.homing.bench.extproc.ExtProcCall;
import dev.homing.protocol.metrics.Sample;
import dev.homing.router.fixtures.TestCluster;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Flow control through ext_proc, a gRPC client playing Envoy. The pool takes one request at a time; a stream the
 * picker placed holds that slot until its response ends, so the test decides exactly when headroom comes back. A
 * queued request's first answer asks Envoy for time ({@code override_message_timeout}); it is placed by priority as
 * slots free; past its TTL Envoy is told to answer 503 {@code rejected-ttl-expired}; a cancelled stream leaves the
 * queue.
 */
class ExtProcFlowControlIT {

    private static FlowCluster flow;
    private static TestCluster cluster;
    private static ManagedChannel channel;

    @BeforeAll
    static void start() throws Exception {
        flow = FlowCluster.start("extproc-flow-it", FlowControlIT.CONFIG.replace("4s", "1500ms"),
                FlowControlIT.OBJECTIVES, true);
        cluster = flow.cluster;
        channel = flow.channel;
    }

    @AfterAll
    static void stop() throws Exception {
        flow.close();
    }

    @AfterEach
    void idle() {
        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.routerInFlight() == 0 && queued() == 0);
    }

    private static double queued() {
        return cluster.http().metrics(cluster.adminUrl("/metrics")).samples("inference_extension_flow_control_queue_size")
                .stream().mapToDouble(Sample::value).sum();
    }

    /** Opens a stream and sends a whole request naming {@code objective} (or none). */
    private static ExtProcCall request(String objective) {
        byte[] body = FlowControlIT.body("x", 2).getBytes(StandardCharsets.UTF_8);
        ExtProcCall s = ExtProcCall.open(channel);
        Map<String, String> headers = post("/v1/completions", body.length);
        if (objective != null) {
            headers.put("x-gateway-inference-objective", objective);
        }
        s.send(requestHeaders(headers, false));
        s.send(requestBody(body, 0, body.length, true));
        return s;
    }

    /** The picker placed the request: its headers answer names the destination; the body follows. */
    private static void assertPlaced(ProcessingResponse r, ExtProcCall s) {
        assertThat(r.hasRequestHeaders()).as(r.toString()).isTrue();
        assertThat(setHeaders(r.getRequestHeaders().getResponse().getHeaderMutation()))
                .containsKey("x-gateway-destination-endpoint");
        s.bodyUntilEnd(true);
    }

    /** Envoy relays the pod's whole answer: the stream's request ends and its slot frees. */
    private static void respond(ExtProcCall s) {
        s.send(EnvoyMessages.responseHeaders(200, "application/json", false));
        s.next();
        s.send(EnvoyMessages.responseBody("{\"id\":\"c\",\"choices\":[]}", true));
        s.next();
        s.halfClose();
    }

    @Test
    void aQueuedRequestAsksEnvoyForTimeAndIsPlacedByPriorityAsSlotsFree() {
        try (ExtProcCall holder = request(null)) {
            assertPlaced(holder.next(), holder);
            try (ExtProcCall batch = request("batch"); ExtProcCall std = request(null);
                 ExtProcCall crit = request("critical")) {
                for (ExtProcCall s : new ExtProcCall[] {batch, std, crit}) {
                    ProcessingResponse first = s.next();
                    assertThat(first.hasOverrideMessageTimeout()).as(first.toString()).isTrue();
                    assertThat(first.getOverrideMessageTimeout().getSeconds()).isEqualTo(1000);
                    assertThat(first.hasRequestHeaders()).isFalse();
                }
                await().atMost(Duration.ofSeconds(5)).until(() -> queued() == 3);
                assertThat(batch.poll(100)).isNull();
                respond(holder);
                assertPlaced(crit.next(), crit); // the most important first, though it came last
                assertThat(std.poll(200)).isNull();
                respond(crit);
                assertPlaced(std.next(), std);
                assertThat(batch.poll(200)).isNull();
                respond(std);
                assertPlaced(batch.next(), batch);
                respond(batch);
            }
        }
    }

    @Test
    void pastItsTtlEnvoyIsToldToAnswer503() {
        try (ExtProcCall holder = request(null)) {
            assertPlaced(holder.next(), holder);
            try (ExtProcCall late = request(null)) {
                long t0 = System.nanoTime();
                assertThat(late.next().hasOverrideMessageTimeout()).isTrue();
                ProcessingResponse r = late.next();
                double waited = (System.nanoTime() - t0) / 1e9;
                assertThat(r.hasImmediateResponse()).as(r.toString()).isTrue();
                assertThat(r.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(503);
                assertThat(setHeaders(r.getImmediateResponse().getHeaders()))
                        .containsEntry("x-llm-d-request-dropped-reason", "rejected-ttl-expired");
                assertThat(r.getImmediateResponse().getBody().toStringUtf8()).contains("request timed out in queue");
                assertThat(waited).isBetween(1.4, 4.0);
            }
            respond(holder);
        }
    }

    @Test
    void aCancelledStreamLeavesTheQueueAndHoldsNothing() {
        try (ExtProcCall holder = request(null)) {
            assertPlaced(holder.next(), holder);
            ExtProcCall leaver = request("critical");
            assertThat(leaver.next().hasOverrideMessageTimeout()).isTrue();
            await().atMost(Duration.ofSeconds(5)).until(() -> queued() == 1);
            leaver.cancel(); // the gateway's client went away
            await().atMost(Duration.ofSeconds(5)).until(() -> queued() == 0);
            respond(holder);
            await().atMost(Duration.ofSeconds(5)).until(() -> cluster.routerInFlight() == 0);
            assertThat(cluster.http().metrics(cluster.adminUrl("/metrics"))
                    .samples("inference_extension_flow_control_request_queue_duration_seconds_count").stream()
                    .filter(s -> "EvictedContextCancelled".equals(s.labels().get("outcome")))
                    .mapToDouble(Sample::value).sum()).isGreaterThanOrEqualTo(1);
        }
    }

    @Test
    void aFullBandIsRefusedAt429WithTheReason() {
        try (ExtProcCall holder = request(null)) {
            assertPlaced(holder.next(), holder);
            ExtProcCall b1 = request("batch");
            await().atMost(Duration.ofSeconds(5)).until(() -> queued() == 1); // streams route concurrently: one
            ExtProcCall b2 = request("batch");                                   // at a time, so b3 comes third
            await().atMost(Duration.ofSeconds(5)).until(() -> queued() == 2);
            try (b1; b2; ExtProcCall b3 = request("batch")) {
                assertThat(b1.next().hasOverrideMessageTimeout()).isTrue();
                assertThat(b2.next().hasOverrideMessageTimeout()).isTrue();
                ProcessingResponse r = b3.next();
                assertThat(r.hasImmediateResponse()).as(r.toString()).isTrue();
                assertThat(r.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(429);
                assertThat(setHeaders(r.getImmediateResponse().getHeaders()))
                        .containsEntry("x-llm-d-request-dropped-reason", "rejected-saturated");
                respond(holder);
                assertPlaced(b1.next(), b1);
                respond(b1);
                assertPlaced(b2.next(), b2);
                respond(b2);
            }
        }
    }
}
