package dev.homing.router.extproc;

import static dev.homing.router.extproc.ExtProcIT.chat;
import static dev.homing.router.extproc.ExtProcIT.sendRequest;
import static dev.homing.bench.extproc.EnvoyMessages.post;
import static dev.homing.bench.extproc.EnvoyMessages.requestBody;
import static dev.homing.bench.extproc.EnvoyMessages.requestHeaders;
import static dev.homing.bench.extproc.EnvoyMessages.setHeaders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.request.TokenSource;
import dev.homing.bench.extproc.EnvoyMessages;
import dev.homing.bench.extproc.ExtProcCall;
import dev.homing.router.fixtures.TestCluster;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import java.io.InputStream;
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
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the ext_proc server sends requests: the same placement as the proxy (home for repeats, spread for newcomers),
 * within the gateway's subset, down a fallback list with the load following the endpoint that served, decisions that
 * never wait on one another's I/O, and a whole request forwarded to the pod it names. Pods listen on distinct loopback
 * addresses (127.0.0.1-3), since a subset hint names pods by IP.
 */
class ExtProcRoutingIT {

    private static TestCluster cluster(int pods, java.util.function.UnaryOperator<dev.homing.router.RouterOptions> o) {
        int[] n = {0};
        return TestCluster.start(pods, b -> b.host("127.0.0." + (++n[0])),
                r -> o.apply(r.with(x -> {
                    x.extProcPort = 0;
                    x.secureServing = false;
                })));
    }

    private static String destination(ProcessingResponse r) {
        return setHeaders(r.getRequestHeaders().getResponse().getHeaderMutation()).get("x-gateway-destination-endpoint");
    }

    /** Routes one chat request and leaves its stream open (its load credited); returns the destination header. */
    private static String route(ExtProcCall s, String content) {
        sendRequest(s, "/v1/chat/completions", chat(content).getBytes(StandardCharsets.UTF_8), 2);
        ProcessingResponse r = s.next();
        s.bodyUntilEnd(true);
        return destination(r);
    }

    @Test
    void sixIdenticalPromptsGoHomeAndThirtyNewcomersSpread() throws Exception {
        try (TestCluster c = cluster(3, o -> o)) {
            ManagedChannel ch = ExtProcCall.channel(c.router().extProcPort(), false);
            String prompt = "The same long system prompt about the history of the printing press and its effects. "
                    .repeat(12);
            List<String> home = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                try (ExtProcCall s = ExtProcCall.open(ch)) {
                    home.add(route(s, prompt));
                    s.halfClose();
                    s.awaitEnd(5000);
                }
            }
            assertThat(home).hasSize(6).containsOnly(home.getFirst());

            List<ExtProcCall> open = new ArrayList<>();
            Map<String, Long> perPod;
            try {
                for (int i = 0; i < 30; i++) {
                    ExtProcCall s = ExtProcCall.open(ch);
                    open.add(s);
                    // llm-d's demo burst: completions whose prompts share less than one block
                    s.send(requestHeaders(post("/v1/completions", -1), false));
                    byte[] body = ("{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"Write one sentence about "
                            + "topic number " + i + " in cloud computing.\",\"max_tokens\":20}")
                            .getBytes(StandardCharsets.UTF_8);
                    s.send(requestBody(body, 0, body.length, true));
                }
                List<String> where = new ArrayList<>();
                for (ExtProcCall s : open) {
                    where.add(destination(s.next()));
                }
                perPod = where.stream().collect(Collectors.groupingBy(w -> w, TreeMap::new, Collectors.counting()));
                assertThat(c.routerInFlight()).isEqualTo(30);
            } finally {
                open.forEach(ExtProcCall::cancel);
            }
            assertThat(perPod).hasSize(3).allSatisfy((pod, n) -> assertThat(n).isEqualTo(10L));
            await().atMost(Duration.ofSeconds(10)).until(() -> c.routerInFlight() == 0);
            ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void theSubsetHintBoundsTheChoiceAndAnEmptyOneIs503() throws Exception {
        try (TestCluster c = cluster(3, o -> o)) {
            ManagedChannel ch = ExtProcCall.channel(c.router().extProcPort(), false);
            String only = "127.0.0.2:" + c.pod(1).port();
            byte[] body = chat("subset").getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 4; i++) {
                try (ExtProcCall s = ExtProcCall.open(ch)) {
                    s.send(EnvoyMessages.withSubset(requestHeaders(post("/v1/chat/completions", body.length), false),
                            List.of("127.0.0.2:9999"))); // IP-only match: the port may differ
                    s.send(requestBody(body, 0, body.length, true));
                    assertThat(destination(s.next())).isEqualTo(only);
                }
            }
            try (ExtProcCall s = ExtProcCall.open(ch)) {
                s.send(EnvoyMessages.withSubset(requestHeaders(post("/v1/chat/completions", body.length), false),
                        List.of()));
                s.send(requestBody(body, 0, body.length, true));
                ProcessingResponse r = s.next();
                assertThat(r.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(503);
                assertThat(setHeaders(r.getImmediateResponse().getHeaders()))
                        .containsEntry("x-llm-d-request-dropped-reason", "rejected-no-endpoints");
            }
            try (ExtProcCall s = ExtProcCall.open(ch)) {
                s.send(EnvoyMessages.withSubset(requestHeaders(post("/v1/chat/completions", body.length), false),
                        List.of("10.1.2.3:8000")));
                s.send(requestBody(body, 0, body.length, true));
                assertThat(s.next().getImmediateResponse().getStatus().getCodeValue()).isEqualTo(503);
            }
            ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(10)).until(() -> c.routerInFlight() == 0);
        }
    }

    @Test
    void aFallbackListIsSentAndTheLoadFollowsTheEndpointThatServed(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("fallbacks.yaml");
        Files.writeString(config, """
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                plugins:
                - type: prefix-cache-scorer
                - type: queue-scorer
                - type: active-request-scorer
                - type: max-score-picker
                  parameters:
                    maxNumOfEndpoints: 2
                schedulingProfiles:
                - name: default
                  plugins:
                  - {pluginRef: prefix-cache-scorer, weight: 3}
                  - {pluginRef: queue-scorer, weight: 2}
                  - {pluginRef: active-request-scorer, weight: 1}
                  - {pluginRef: max-score-picker}
                """);
        try (TestCluster c = cluster(3, o -> o.with(x -> x.configFile = config))) {
            ManagedChannel ch = ExtProcCall.channel(c.router().extProcPort(), false);
            try (ExtProcCall s = ExtProcCall.open(ch)) {
                String[] list = route(s, "fallbacks please").split(",");
                assertThat(list).hasSize(2).doesNotHaveDuplicates();
                String first = list[0];
                String second = list[1];
                assertThat(loadAt(c, first)).isEqualTo(1);
                // The first refused the connection: the gateway went down the list and says so with the response.
                s.send(EnvoyMessages.withServed(EnvoyMessages.responseHeaders(200, "text/event-stream", false), second));
                ProcessingResponse rh = s.next();
                String pod = setHeaders(rh.getResponseHeaders().getResponse().getHeaderMutation()).get("x-homing-pod");
                assertThat(c.router().pool().snapshot().get(pod).endpoint().address()).isEqualTo(second);
                assertThat(loadAt(c, first)).isZero();
                assertThat(loadAt(c, second)).isEqualTo(1);
                s.send(EnvoyMessages.responseBody("data: [DONE]\n\n", true));
                s.next();
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> c.routerInFlight() == 0);
            ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aDisaggregatedConfigNamesThePrefillerToTheDecodePod(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("pd.yaml");
        Files.writeString(config, """
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                plugins:
                - type: prefix-cache-scorer
                - type: queue-scorer
                - type: prefill-filter
                - type: decode-filter
                - type: max-score-picker
                - type: disagg-profile-handler
                  parameters:
                    deciders:
                      prefill: prefix-based-pd-decider
                - type: prefix-based-pd-decider
                  parameters:
                    nonCachedTokens: 16
                schedulingProfiles:
                - name: prefill
                  plugins: [{pluginRef: prefill-filter}, {pluginRef: max-score-picker}, {pluginRef: queue-scorer}]
                - name: decode
                  plugins: [{pluginRef: decode-filter}, {pluginRef: max-score-picker}, {pluginRef: queue-scorer}]
                """);
        try (TestCluster c = cluster(2, o -> o.with(x -> {
            x.configFile = config;
            x.endpoints = List.of(
                    labelled(x.endpoints.get(0), "prefill"),
                    labelled(x.endpoints.get(1), "decode"));
        }))) {
            ManagedChannel ch = ExtProcCall.channel(c.router().extProcPort(), false);
            String prefill = "127.0.0.1:" + c.pod(0).port();
            String decode = "127.0.0.2:" + c.pod(1).port();
            try (ExtProcCall s = ExtProcCall.open(ch)) {
                sendRequest(s, "/v1/chat/completions", chat("A question long enough to be worth a remote prefill, "
                        .repeat(8)).getBytes(StandardCharsets.UTF_8), 1);
                Map<String, String> set = setHeaders(s.next().getRequestHeaders().getResponse().getHeaderMutation());
                assertThat(set).containsEntry("x-gateway-destination-endpoint", decode)
                        .containsEntry("x-prefiller-host-port", prefill);
            }
            try (ExtProcCall s = ExtProcCall.open(ch)) {
                sendRequest(s, "/v1/chat/completions", chat("hi").getBytes(StandardCharsets.UTF_8), 1);
                var m = s.next().getRequestHeaders().getResponse().getHeaderMutation();
                assertThat(setHeaders(m)).containsEntry("x-gateway-destination-endpoint", decode)
                        .doesNotContainKey("x-prefiller-host-port");
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> c.routerInFlight() == 0);
            ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void filtersThatLeaveNoEndpointAre429RejectedSaturated(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("decode-only.yaml");
        Files.writeString(config, """
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                plugins:
                - type: decode-filter
                - type: queue-scorer
                """);
        try (TestCluster c = cluster(2, o -> o.with(x -> {
            x.configFile = config;
            x.endpoints = x.endpoints.stream().map(e -> labelled(e, "prefill")).toList();
        }))) {
            ManagedChannel ch = ExtProcCall.channel(c.router().extProcPort(), false);
            try (ExtProcCall s = ExtProcCall.open(ch)) {
                sendRequest(s, "/v1/chat/completions", chat("nobody decodes").getBytes(StandardCharsets.UTF_8), 1);
                ProcessingResponse r = s.next();
                assertThat(r.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(429);
                assertThat(setHeaders(r.getImmediateResponse().getHeaders()))
                        .containsEntry("x-llm-d-request-dropped-reason", "rejected-saturated");
            }
            assertThat(c.routerInFlight()).isZero();
            ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    private static dev.homing.core.endpoint.Endpoint labelled(dev.homing.core.endpoint.Endpoint e, String role) {
        Map<String, String> labels = new java.util.HashMap<>(e.labels());
        labels.put("llm-d.ai/role", role);
        return new dev.homing.core.endpoint.Endpoint(e.name(), e.host(), e.port(), labels);
    }

    private static int loadAt(TestCluster c, String address) {
        return c.router().pool().snapshot().byAddress(address).inFlightRequests();
    }

    /** A token source that holds one prompt's tokenization until released, as a slow pod would. */
    private static final class StallingTokens implements TokenSource {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public Optional<int[]> tokens(InferenceRequest request, String renderUrl, Duration timeout) {
            if (request.fields().promptJson().contains("stall")) {
                entered.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Optional.of(new int[]{1, 2, 3, 4, 5, 6, 7, 8});
        }
    }

    @Test
    void aDecisionWaitingOnItsTokensHoldsUpNoOtherStream() throws Exception {
        StallingTokens tokens = new StallingTokens();
        try (TestCluster c = cluster(2, o -> o.with(x -> {
            x.precise = true;
            x.tokenSource = tokens;
        }))) {
            ManagedChannel ch = ExtProcCall.channel(c.router().extProcPort(), false);
            try (ExtProcCall stalled = ExtProcCall.open(ch)) {
                sendRequest(stalled, "/v1/chat/completions", chat("stall here").getBytes(StandardCharsets.UTF_8), 1);
                assertThat(tokens.entered.await(10, TimeUnit.SECONDS)).isTrue();
                for (int i = 0; i < 5; i++) {
                    try (ExtProcCall s = ExtProcCall.open(ch)) {
                        assertThat(route(s, "free " + i)).isNotNull();
                    }
                }
                assertThat(stalled.poll(0)).as("the stalled stream is still waiting").isNull();
                // The client goes away while its decision waits: once it is made, nothing of it stays credited.
                stalled.cancel();
                tokens.release.countDown();
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> c.routerInFlight() == 0);
            ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aRequestForwardedWhereThePickerSaysIsServedThereAndItsStreamPassesThrough() throws Exception {
        try (TestCluster c = cluster(2, o -> o);
             HttpClient http = HttpClient.newHttpClient()) {
            ManagedChannel ch = ExtProcCall.channel(c.router().extProcPort(), false);
            String json = "{\"model\":\"" + TestCluster.MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":"
                    + "\"Count slowly\"}],\"max_tokens\":12,\"ignore_eos\":true,\"stream\":true,"
                    + "\"stream_options\":{\"include_usage\":true}}";
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            try (ExtProcCall s = ExtProcCall.open(ch)) {
                sendRequest(s, "/v1/chat/completions", body, 3);
                String destination = destination(s.next());
                byte[] given = ExtProcCall.joined(s.bodyUntilEnd(true), true).toByteArray();
                // Envoy's part: send the given-back body to the destination, and the response through the picker.
                HttpResponse<InputStream> res = http.send(HttpRequest.newBuilder(
                                URI.create("http://" + destination + "/v1/chat/completions"))
                        .header("content-type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(given)).build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                assertThat(res.statusCode()).isEqualTo(200);
                s.send(EnvoyMessages.responseHeaders(200, res.headers().firstValue("content-type").orElse(""), false));
                s.next();
                StringBuilder echoed = new StringBuilder();
                StringBuilder sent = new StringBuilder();
                try (InputStream in = res.body()) {
                    byte[] buf = new byte[512];
                    for (int n; (n = in.read(buf)) > 0; ) {
                        String chunk = new String(buf, 0, n, StandardCharsets.UTF_8);
                        sent.append(chunk);
                        s.send(EnvoyMessages.responseBody(chunk, false));
                        echoed.append(s.next().getResponseBody().getResponse().getBodyMutation()
                                .getStreamedResponse().getBody().toStringUtf8());
                    }
                }
                s.send(EnvoyMessages.responseBody("", true));
                s.next();
                assertThat(echoed.toString()).isEqualTo(sent.toString()).contains("\"completion_tokens\":12");
                int pod = c.pod(0).config().host().equals(destination.substring(0, destination.indexOf(':'))) ? 0 : 1;
                assertThat(c.http().metrics(c.podUrl(pod, "/metrics")).sum("vllm:generation_tokens_total"))
                        .isEqualTo(12);
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> c.routerInFlight() == 0);
            ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
