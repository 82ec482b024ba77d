package dev.homing.router.extproc;

import static dev.homing.bench.extproc.EnvoyMessages.metadataDestination;
import static dev.homing.bench.extproc.EnvoyMessages.post;
import static dev.homing.bench.extproc.EnvoyMessages.requestBody;
import static dev.homing.bench.extproc.EnvoyMessages.requestHeaders;
import static dev.homing.bench.extproc.EnvoyMessages.setHeaders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.bench.extproc.EnvoyMessages;
import dev.homing.bench.extproc.ExtProcCall;
import dev.homing.router.fixtures.TestCluster;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode.BodySendMode;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The ext_proc protocol as Envoy's filter speaks it to llm-d's picker, driven by a client playing Envoy against a
 * router with simulated pods behind it, over TLS (the default, a self-signed certificate).
 */
class ExtProcIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static TestCluster cluster;
    private static ManagedChannel channel;

    @BeforeAll
    static void start() {
        cluster = TestCluster.start(3, b -> b, o -> o.with(x -> {
            x.extProcPort = 0;
            x.maxBodyBytes = 1 << 20;
        }));
        channel = ExtProcCall.channel(cluster.router().extProcPort(), true);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        cluster.close();
    }

    @AfterEach
    void nothingLeftInFlight() {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> cluster.routerInFlight() == 0 && cluster.routerPendingPrefill() == 0);
    }

    static String chat(String content) {
        return "{\"model\":\"" + TestCluster.MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\""
                + content + "\"}],\"max_tokens\":8}";
    }

    /** Sends headers, then the body in {@code chunks} pieces, the last ending the stream. */
    static void sendRequest(ExtProcCall s, String path, byte[] body, int chunks) {
        s.send(requestHeaders(post(path, body.length), false));
        for (int i = 0; i < chunks; i++) {
            int from = body.length * i / chunks;
            int to = body.length * (i + 1) / chunks;
            s.send(requestBody(body, from, to, i == chunks - 1));
        }
    }

    private static String podAddress(int i) {
        return "127.0.0.1:" + cluster.pod(i).port();
    }

    @Test
    void aChatBodyInThreeChunksIsRoutedThenGivenBackWhole() {
        byte[] body = chat("x".repeat(4000)).getBytes(StandardCharsets.UTF_8);
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            sendRequest(s, "/v1/chat/completions", body, 3);
            ProcessingResponse headers = s.next();
            assertThat(headers.hasRequestHeaders()).isTrue();
            CommonResponse common = headers.getRequestHeaders().getResponse();
            assertThat(common.getClearRouteCache()).isTrue();
            Map<String, String> set = setHeaders(common.getHeaderMutation());
            String destination = set.get("x-gateway-destination-endpoint");
            assertThat(destination).isIn(podAddress(0), podAddress(1), podAddress(2));
            assertThat(metadataDestination(headers)).isEqualTo(destination);
            assertThat(set).containsEntry("content-length", Integer.toString(body.length));
            assertThat(common.getHeaderMutation().getSetHeaders(0).getAppendAction().name())
                    .isEqualTo("OVERWRITE_IF_EXISTS_OR_ADD");

            List<ProcessingResponse> given = s.bodyUntilEnd(true);
            assertThat(given).hasSize(1);
            assertThat(ExtProcCall.joined(given, true).toByteArray()).isEqualTo(body);
            assertThat(cluster.routerInFlight()).isEqualTo(1);
            s.halfClose();
            assertThat(s.awaitEnd(5000)).isTrue();
        }
    }

    @Test
    void aBodyOverOneChunkComesBackIn62000BytePieces() {
        byte[] body = chat("y".repeat(150_000)).getBytes(StandardCharsets.UTF_8);
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            sendRequest(s, "/v1/chat/completions", body, 10);
            assertThat(s.next().hasRequestHeaders()).isTrue();
            List<ProcessingResponse> given = s.bodyUntilEnd(true);
            assertThat(given).extracting(r -> r.getRequestBody().getResponse().getBodyMutation()
                    .getStreamedResponse().getBody().size()).containsExactly(62_000, 62_000, body.length - 124_000);
            assertThat(given).extracting(r -> r.getRequestBody().getResponse().getBodyMutation()
                    .getStreamedResponse().getEndOfStream()).containsExactly(false, false, true);
            assertThat(ExtProcCall.joined(given, true).toByteArray()).isEqualTo(body);
        }
    }

    @Test
    void trailersEndTheBodyAndAreAnsweredAfterIt() {
        byte[] body = chat("with trailers").getBytes(StandardCharsets.UTF_8);
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            s.send(requestHeaders(post("/v1/chat/completions", body.length), false));
            s.send(requestBody(body, 0, 10, false));
            s.send(requestBody(body, 10, body.length, false));
            assertThat(s.poll(300)).as("nothing before the body is whole").isNull();
            s.send(EnvoyMessages.requestTrailers());
            assertThat(s.next().hasRequestHeaders()).isTrue();
            ProcessingResponse piece = s.next();
            assertThat(piece.getRequestBody().getResponse().getBodyMutation().getStreamedResponse().getEndOfStream())
                    .as("trailers follow: the body does not end the stream").isFalse();
            assertThat(piece.getRequestBody().getResponse().getBodyMutation().getStreamedResponse().getBody()
                    .toByteArray()).isEqualTo(body);
            assertThat(s.next().hasRequestTrailers()).isTrue();
        }
    }

    @Test
    void bufferedModeAnswersTheHeadersAtOnceAndRoutesOnTheBody() {
        byte[] body = chat("buffered").getBytes(StandardCharsets.UTF_8);
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            s.send(EnvoyMessages.withModes(requestHeaders(post("/v1/chat/completions", body.length), false),
                    BodySendMode.BUFFERED, BodySendMode.BUFFERED));
            ProcessingResponse headers = s.next();
            assertThat(headers.hasRequestHeaders()).isTrue();
            assertThat(headers.getRequestHeaders().getResponse().getHeaderMutation().getSetHeadersCount()).isZero();
            s.send(requestBody(body, 0, body.length, true));
            ProcessingResponse routed = s.next();
            assertThat(routed.hasRequestBody()).isTrue();
            CommonResponse common = routed.getRequestBody().getResponse();
            assertThat(common.getClearRouteCache()).isTrue();
            assertThat(common.hasBodyMutation()).as("the body goes on unchanged").isFalse();
            String destination = setHeaders(common.getHeaderMutation()).get("x-gateway-destination-endpoint");
            assertThat(destination).isIn(podAddress(0), podAddress(1), podAddress(2));
            assertThat(metadataDestination(routed)).isEqualTo(destination);

            s.send(EnvoyMessages.responseHeaders(200, "application/json", false));
            assertThat(s.next().hasResponseHeaders()).isTrue();
            s.send(EnvoyMessages.responseBody("{\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2}}", true));
            ProcessingResponse answered = s.next();
            assertThat(answered.hasResponseBody()).isTrue();
            assertThat(answered.getResponseBody().getResponse().hasBodyMutation()).isFalse();
        }
    }

    @Test
    void aStreamedResponseIsEchoedChunkByChunkItsUsageReadAndTheLoadReleasedAtItsEnd() throws Exception {
        byte[] body = chat("stream me").getBytes(StandardCharsets.UTF_8);
        double inputBefore = metric("inference_objective_input_tokens_sum");
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            sendRequest(s, "/v1/chat/completions", body, 2);
            String destination = setHeaders(s.next().getRequestHeaders().getResponse().getHeaderMutation())
                    .get("x-gateway-destination-endpoint");
            s.bodyUntilEnd(true);
            s.send(EnvoyMessages.responseHeaders(200, "text/event-stream", false));
            ProcessingResponse rh = s.next();
            String pod = setHeaders(rh.getResponseHeaders().getResponse().getHeaderMutation()).get("x-homing-pod");
            assertThat(podAddress(Integer.parseInt(pod.substring(4)))).isEqualTo(destination);
            List<String> chunks = List.of(
                    "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n",
                    "data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n\n",
                    "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":17,\"completion_tokens\":2,"
                            + "\"total_tokens\":19}}\n\ndata: [DONE]\n\n");
            for (int i = 0; i < chunks.size(); i++) {
                s.send(EnvoyMessages.responseBody(chunks.get(i), i == chunks.size() - 1));
                ProcessingResponse echo = s.next();
                var streamed = echo.getResponseBody().getResponse().getBodyMutation().getStreamedResponse();
                assertThat(streamed.getBody().toStringUtf8()).isEqualTo(chunks.get(i));
                assertThat(streamed.getEndOfStream()).isEqualTo(i == chunks.size() - 1);
                if (i < chunks.size() - 1) {
                    assertThat(cluster.routerInFlight()).as("still in flight mid-response").isEqualTo(1);
                }
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> cluster.routerInFlight() == 0);
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> metric("inference_objective_input_tokens_sum") == inputBefore + 17);
        }
    }

    @Test
    void aRequestWithoutABodyIsRoutedOnItsHeadersByLoad() {
        Map<String, String> get = new java.util.LinkedHashMap<>();
        get.put(":method", "GET");
        get.put(":path", "/v1/models");
        get.put(":authority", "gateway.example");
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            s.send(requestHeaders(get, true));
            ProcessingResponse r = s.next();
            assertThat(r.hasRequestHeaders()).isTrue();
            Map<String, String> set = setHeaders(r.getRequestHeaders().getResponse().getHeaderMutation());
            assertThat(set.get("x-gateway-destination-endpoint")).isIn(podAddress(0), podAddress(1), podAddress(2));
            assertThat(set).doesNotContainKey("content-length");
            assertThat(s.poll(200)).as("no body to give back").isNull();
            assertThat(cluster.routerInFlight()).isEqualTo(1);
        }
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            get.put(":path", "/metrics"); // a pod's own: no model server's to answer through the pool
            s.send(requestHeaders(get, true));
            assertThat(s.next().getImmediateResponse().getStatus().getCodeValue()).isEqualTo(404);
        }
    }

    @Test
    void aResponsesFollowUpGoesBackToThePodThatAnsweredIt() {
        String first = "{\"model\":\"" + TestCluster.MODEL + "\",\"input\":\"Remember the number 7.\"}";
        String answered;
        String id = "resp_" + Long.toHexString(System.nanoTime());
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            sendRequest(s, "/v1/responses", first.getBytes(StandardCharsets.UTF_8), 2);
            answered = setHeaders(s.next().getRequestHeaders().getResponse().getHeaderMutation())
                    .get("x-gateway-destination-endpoint");
            s.bodyUntilEnd(true);
            s.send(EnvoyMessages.responseHeaders(200, "application/json", false));
            s.next();
            s.send(EnvoyMessages.responseBody("{\"id\":\"" + id + "\",\"object\":\"response\",\"status\":"
                    + "\"completed\",\"usage\":{\"input_tokens\":6,\"output_tokens\":3}}", true));
            s.next();
        }
        for (int i = 0; i < 4; i++) {
            String next = "{\"model\":\"" + TestCluster.MODEL + "\",\"previous_response_id\":\"" + id
                    + "\",\"input\":\"Question " + i + " about something else entirely\"}";
            try (ExtProcCall s = ExtProcCall.open(channel)) {
                sendRequest(s, "/v1/responses", next.getBytes(StandardCharsets.UTF_8), 1);
                assertThat(setHeaders(s.next().getRequestHeaders().getResponse().getHeaderMutation())
                        .get("x-gateway-destination-endpoint")).isEqualTo(answered);
            }
        }
    }

    @ParameterizedTest(name = "sse {0}")
    @ValueSource(booleans = {false, true})
    void aFollowUpSentTheMomentTheFirstBytesArriveGoesToThePodThatIsAnswering(boolean sse) {
        String id = "resp_" + Long.toHexString(System.nanoTime()) + (sse ? "s" : "j");
        String first = "{\"model\":\"" + TestCluster.MODEL + "\",\"input\":\"Remember the number 8.\"}";
        // what the pod sends first: a JSON body opens with the id, a stream with its response.created event
        String head = sse
                ? "event: response.created\ndata: {\"response\":{\"id\":\"" + id + "\",\"object\":\"response\","
                        + "\"status\":\"in_progress\",\"usage\":null},\"sequence_number\":0,"
                        + "\"type\":\"response.created\"}\n\n"
                : "{\"id\":\"" + id + "\",\"created_at\":1,";
        String rest = sse
                ? "event: response.completed\ndata: {\"response\":{\"id\":\"" + id + "\",\"status\":\"completed\","
                        + "\"usage\":{\"input_tokens\":6,\"output_tokens\":3}},\"type\":\"response.completed\"}\n\n"
                : "\"object\":\"response\",\"status\":\"completed\",\"usage\":{\"input_tokens\":6,\"output_tokens\":3}}";
        long pinned = cluster.router().director().responses().pinned();
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            sendRequest(s, "/v1/responses", first.getBytes(StandardCharsets.UTF_8), 1);
            String answering = setHeaders(s.next().getRequestHeaders().getResponse().getHeaderMutation())
                    .get("x-gateway-destination-endpoint");
            s.bodyUntilEnd(true);
            s.send(EnvoyMessages.responseHeaders(200, sse ? "text/event-stream" : "application/json", false));
            s.next();
            s.send(EnvoyMessages.responseBody(head, false));
            s.next(); // echoed: the client has the first bytes, and the response is still under way
            String next = "{\"model\":\"" + TestCluster.MODEL + "\",\"previous_response_id\":\"" + id
                    + "\",\"input\":\"An agent's next step, sent at once\"}";
            try (ExtProcCall f = ExtProcCall.open(channel)) {
                sendRequest(f, "/v1/responses", next.getBytes(StandardCharsets.UTF_8), 1);
                assertThat(setHeaders(f.next().getRequestHeaders().getResponse().getHeaderMutation())
                        .get("x-gateway-destination-endpoint")).isEqualTo(answering);
            }
            assertThat(cluster.router().director().responses().pinned()).isEqualTo(pinned + 1);
            s.send(EnvoyMessages.responseBody(rest, true));
            s.next();
        }
    }

    @Test
    void inBufferedModeARequestWithoutABodyIsAnsweredAtItsHeaders() {
        Map<String, String> get = new java.util.LinkedHashMap<>();
        get.put(":method", "GET");
        get.put(":path", "/v1/models");
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            s.send(EnvoyMessages.withModes(requestHeaders(get, true), BodySendMode.BUFFERED, BodySendMode.BUFFERED));
            ProcessingResponse r = s.next();
            assertThat(r.hasRequestHeaders()).as("a request_headers answer to request_headers").isTrue();
            assertThat(setHeaders(r.getRequestHeaders().getResponse().getHeaderMutation()))
                    .containsKey("x-gateway-destination-endpoint");
        }
    }

    @Test
    void anEmptyBodyEndedByAnEmptyChunkIsGivenBackEndingTheStream() {
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            s.send(requestHeaders(post("/v1/responses/resp_x/cancel", -1), false));
            s.send(requestBody(new byte[0], 0, 0, true));
            Map<String, String> set = setHeaders(s.next().getRequestHeaders().getResponse().getHeaderMutation());
            assertThat(set).containsEntry("content-length", "0").containsKey("x-gateway-destination-endpoint");
            var piece = s.next().getRequestBody().getResponse().getBodyMutation().getStreamedResponse();
            assertThat(piece.getBody().isEmpty()).isTrue();
            assertThat(piece.getEndOfStream()).as("Envoy ends the upstream request here").isTrue();
        }
    }

    @Test
    void bodyModesThatHideTheWholeBodyAreRefusedAtTheHeaders() throws Exception {
        for (BodySendMode mode : new BodySendMode[]{BodySendMode.NONE, BodySendMode.BUFFERED_PARTIAL,
                BodySendMode.STREAMED}) {
            try (ExtProcCall s = ExtProcCall.open(channel)) {
                s.send(EnvoyMessages.withModes(requestHeaders(post("/v1/chat/completions", 40), false), mode,
                        BodySendMode.NONE));
                ProcessingResponse r = s.next();
                assertThat(r.getImmediateResponse().getStatus().getCodeValue()).as(mode.name()).isEqualTo(500);
                assertThat(JSON.readTree(r.getImmediateResponse().getBody().toByteArray()).path("error")
                        .path("message").asText()).contains(mode.name()).contains("FULL_DUPLEX_STREAMED");
            }
        }
    }

    @Test
    void aDeclaredLengthOverTheLimitIsA413BeforeAnyBody() {
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            s.send(requestHeaders(post("/v1/chat/completions", (1 << 20) + 1), false));
            assertThat(s.next().getImmediateResponse().getStatus().getCodeValue()).isEqualTo(413);
        }
    }

    @Test
    void responseTrailersEndTheResponseAndAreAnswered() {
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            sendRequest(s, "/v1/chat/completions", chat("grpc-ish").getBytes(StandardCharsets.UTF_8), 1);
            s.next();
            s.bodyUntilEnd(true);
            s.send(EnvoyMessages.responseHeaders(200, "application/json", false));
            s.next();
            s.send(EnvoyMessages.responseBody("{\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}", false));
            s.next();
            assertThat(cluster.routerInFlight()).isEqualTo(1);
            s.send(EnvoyMessages.responseTrailers());
            assertThat(s.next().hasResponseTrailers()).isTrue();
            await().atMost(Duration.ofSeconds(5)).until(() -> cluster.routerInFlight() == 0);
        }
    }

    @Test
    void aServedEndpointOutsideThePoolLeavesTheLoadWhereItWas() {
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            sendRequest(s, "/v1/chat/completions", chat("served by a stranger").getBytes(StandardCharsets.UTF_8), 1);
            String destination = setHeaders(s.next().getRequestHeaders().getResponse().getHeaderMutation())
                    .get("x-gateway-destination-endpoint");
            s.bodyUntilEnd(true);
            s.send(EnvoyMessages.withServed(EnvoyMessages.responseHeaders(200, "text/event-stream", false),
                    "10.9.9.9:8000"));
            s.next();
            assertThat(cluster.router().pool().snapshot().byAddress(destination).inFlightRequests()).isEqualTo(1);
        }
    }

    @Test
    void inObservabilityModeThePickerAnswersNothingAndCreditsNothing() {
        byte[] body = chat("only watched").getBytes(StandardCharsets.UTF_8);
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            s.send(requestHeaders(post("/v1/chat/completions", body.length), false).toBuilder()
                    .setObservabilityMode(true).build());
            s.send(requestBody(body, 0, body.length, true).toBuilder().setObservabilityMode(true).build());
            assertThat(s.poll(300)).isNull();
            assertThat(cluster.routerInFlight()).isZero();
        }
    }

    @Test
    void aResponseWhoseHeadersTheGatewaySkipsIsStillReadAsTheEventStreamItIs() {
        String id = "resp_" + Long.toHexString(System.nanoTime()) + "skip";
        String answered;
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            String first = "{\"model\":\"" + TestCluster.MODEL + "\",\"stream\":true,\"input\":\"Remember 9.\"}";
            sendRequest(s, "/v1/responses", first.getBytes(StandardCharsets.UTF_8), 1);
            answered = setHeaders(s.next().getRequestHeaders().getResponse().getHeaderMutation())
                    .get("x-gateway-destination-endpoint");
            s.bodyUntilEnd(true);
            // response_header_mode: SKIP: the event stream comes without its headers, its id in the first event
            s.send(EnvoyMessages.responseBody("event: response.created\ndata: {\"type\":\"response.created\","
                    + "\"response\":{\"id\":\"" + id + "\",\"object\":\"response\",\"status\":"
                    + "\"in_progress\"}}\n\n", false));
            s.next();
        }
        for (int i = 0; i < 4; i++) {
            String next = "{\"model\":\"" + TestCluster.MODEL + "\",\"previous_response_id\":\"" + id
                    + "\",\"input\":\"Unrelated question " + i + " to spread elsewhere\"}";
            try (ExtProcCall s = ExtProcCall.open(channel)) {
                sendRequest(s, "/v1/responses", next.getBytes(StandardCharsets.UTF_8), 1);
                assertThat(setHeaders(s.next().getRequestHeaders().getResponse().getHeaderMutation())
                        .get("x-gateway-destination-endpoint")).isEqualTo(answered);
            }
        }
    }

    @Test
    void aCancelledStreamReleasesItsLoad() {
        byte[] body = chat("cancel me").getBytes(StandardCharsets.UTF_8);
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            sendRequest(s, "/v1/chat/completions", body, 1);
            s.next();
            s.bodyUntilEnd(true);
            s.send(EnvoyMessages.responseHeaders(200, "text/event-stream", false));
            s.next();
            assertThat(cluster.routerInFlight()).isEqualTo(1);
            s.cancel();
            await().atMost(Duration.ofSeconds(5)).until(() -> cluster.routerInFlight() == 0);
        }
    }

    @Test
    void aGatewayThatSkipsTheResponseReleasesTheLoadWhenItEndsTheStream() {
        byte[] body = chat("skip the response").getBytes(StandardCharsets.UTF_8);
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            sendRequest(s, "/v1/chat/completions", body, 1);
            assertThat(s.next().hasRequestHeaders()).isTrue();
            s.bodyUntilEnd(true);
            assertThat(cluster.routerInFlight()).isEqualTo(1);
            s.halfClose(); // response_header_mode SKIP, response_body_mode NONE: nothing more comes
            assertThat(s.awaitEnd(5000)).isTrue();
            assertThat(s.error()).isNull();
            await().atMost(Duration.ofSeconds(5)).until(() -> cluster.routerInFlight() == 0);
        }
    }

    @Test
    void anUnknownModelIsA404ImmediateResponseInOpenAisShape() throws Exception {
        byte[] body = "{\"model\":\"no-such-model\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"
                .getBytes(StandardCharsets.UTF_8);
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            sendRequest(s, "/v1/chat/completions", body, 1);
            ProcessingResponse r = s.next();
            assertThat(r.hasImmediateResponse()).isTrue();
            assertThat(r.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(404);
            assertThat(setHeaders(r.getImmediateResponse().getHeaders())).containsEntry("content-type", "application/json");
            JsonNode error = JSON.readTree(r.getImmediateResponse().getBody().toByteArray()).path("error");
            assertThat(error.path("code").asInt()).isEqualTo(404);
            assertThat(error.path("message").asText()).contains("no-such-model");
        }
    }

    @Test
    void aMalformedBodyIsA400NamingTheField() throws Exception {
        byte[] body = ("{\"model\":\"" + TestCluster.MODEL + "\",\"messages\":\"not a list\"}")
                .getBytes(StandardCharsets.UTF_8);
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            sendRequest(s, "/v1/chat/completions", body, 1);
            ProcessingResponse r = s.next();
            assertThat(r.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(400);
            JsonNode error = JSON.readTree(r.getImmediateResponse().getBody().toByteArray()).path("error");
            assertThat(error.path("param").asText()).isEqualTo("messages");
        }
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            sendRequest(s, "/v1/completions", "{not json".getBytes(StandardCharsets.UTF_8), 1);
            assertThat(s.next().getImmediateResponse().getStatus().getCodeValue()).isEqualTo(400);
        }
    }

    @Test
    void aBodyOverTheLimitIsA413() {
        byte[] body = chat("z".repeat((1 << 20) + 10)).getBytes(StandardCharsets.UTF_8);
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            sendRequest(s, "/v1/chat/completions", body, 40);
            ProcessingResponse r = s.next();
            assertThat(r.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(413);
        }
    }

    @Test
    void headersOnlyTheRouterMaySetAreRemovedAndTheDestinationReplaced() {
        byte[] body = chat("forged").getBytes(StandardCharsets.UTF_8);
        Map<String, String> h = post("/v1/chat/completions", body.length);
        h.put("x-prefiller-host-port", "10.9.9.9:8000");
        h.put("x-gateway-destination-endpoint", "10.9.9.9:8000");
        h.put("x-gateway-inference-objective", "batch");
        h.put("x-user-header", "kept");
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            s.send(requestHeaders(h, false));
            s.send(requestBody(body, 0, body.length, true));
            var m = s.next().getRequestHeaders().getResponse().getHeaderMutation();
            assertThat(m.getRemoveHeadersList()).contains("x-prefiller-host-port", "x-gateway-inference-objective")
                    .doesNotContain("x-user-header", "x-gateway-destination-endpoint");
            assertThat(setHeaders(m).get("x-gateway-destination-endpoint")).isNotEqualTo("10.9.9.9:8000");
        }
    }

    private static double metric(String name) {
        return cluster.http().metrics(cluster.adminUrl("/metrics")).sum(name);
    }
}
