package dev.homing.router.extproc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.router.fixtures.TestCluster;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption.HeaderAppendAction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The picker spoken to by a second gRPC stack: Envoy's ext_proc filter played from Node ({@code @grpc/grpc-js}, with
 * Envoy's own {@code .proto} files, from the api jar the router is built on, loaded by {@code @grpc/proto-loader}),
 * so that a bug the Java client and server share (they share grpc-java and the generated classes) cannot pass. The
 * script reports what the picker answered, bytes in base64; this test judges it.
 */
class NodeEnvoyIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration RUN = Duration.ofSeconds(60);
    private static final int OVERWRITE_IF_EXISTS_OR_ADD = HeaderAppendAction.OVERWRITE_IF_EXISTS_OR_ADD.getNumber();

    @TempDir
    static Path dir;
    private static Path protos;
    private static TestCluster cluster;

    @BeforeAll
    static void start() throws IOException {
        protos = NodeEnvoy.extractProtos(dir.resolve("protos"));
        cluster = TestCluster.start(3, b -> b, o -> o.with(x -> {
            x.extProcPort = 0; // TLS, the default, with the self-signed certificate made at start
            x.maxBodyBytes = 1 << 20;
        }));
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
    void overTlsAChatIsRoutedItsBodyGivenBackByteForByteAndItsStreamedResponseEchoed() throws Exception {
        // Multi-byte UTF-8 throughout, so that the three chunks split characters: the picker must gather bytes.
        byte[] body = chat("naïve café ✓ 日本語 🚀 ".repeat(120)).getBytes(StandardCharsets.UTF_8);
        List<String> sse = sseChunks(23);
        double inputBefore = metric("inference_objective_input_tokens_sum");
        JsonNode x;
        try (NodeEnvoy node = NodeEnvoy.start(dir.resolve("tls"), protos, cluster.router().extProcPort(), true,
                plan(exchange("chat", "/v1/chat/completions", body, 3, sse, true)))) {
            assertThat(node.await("paused", RUN).asText()).isEqualTo("chat");
            assertThat(cluster.routerInFlight()).as("the load is held while the response streams").isEqualTo(1);
            node.send(Map.of("resume", "chat"));
            x = node.await("summary", RUN).path("exchanges").get(0);
        }

        String destination = assertRouted(x, cluster, body);
        assertThat(x.path("requestHeaders").path("mutation").path("set")).allSatisfy(h ->
                assertThat(h.path("append_action").asInt()).as(h.path("key").asText())
                        .isEqualTo(OVERWRITE_IF_EXISTS_OR_ADD));
        assertThat(x.path("bodyGivenBack").path("pieces")).hasSize(1);

        Map<String, String> answered = set(x.path("responseHeaders").path("mutation"));
        String pod = answered.get("x-homing-pod");
        assertThat(pod).as("the response headers name the pod picked").startsWith("pod-");
        assertThat(address(cluster, Integer.parseInt(pod.substring(4)))).isEqualTo(destination);
        assertEchoed(x, sse);
        assertThat(x.path("end").path("code").asInt()).as("the stream's gRPC status").isZero();
        await().atMost(Duration.ofSeconds(5)).until(() -> cluster.routerInFlight() == 0);
        await("the usage in the last SSE chunk is read").atMost(Duration.ofSeconds(5))
                .until(() -> metric("inference_objective_input_tokens_sum") == inputBefore + 23);
    }

    @Test
    void aBodyOverOneMessageComesBackIn62000BytePiecesInOrder() throws Exception {
        String words = IntStream.range(0, 50_000).mapToObj(i -> Integer.toString(i, 36))
                .collect(Collectors.joining(" "));
        byte[] body = chat(words).getBytes(StandardCharsets.UTF_8);
        assertThat(body.length).isGreaterThan(3 * 62_000);
        List<String> sse = sseChunks(5);
        JsonNode x;
        try (NodeEnvoy node = NodeEnvoy.start(dir.resolve("large"), protos, cluster.router().extProcPort(), true,
                plan(exchange("large", "/v1/chat/completions", body, 3, sse, false)))) {
            x = node.await("summary", RUN).path("exchanges").get(0);
        }
        assertRouted(x, cluster, body);
        JsonNode pieces = x.path("bodyGivenBack").path("pieces");
        int n = (body.length + 61_999) / 62_000;
        assertThat(pieces).hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(pieces.get(i).path("size").asInt()).isEqualTo(i < n - 1 ? 62_000 : body.length - 62_000 * (n - 1));
            assertThat(pieces.get(i).path("end_of_stream").asBoolean()).isEqualTo(i == n - 1);
        }
        assertEchoed(x, sse);
        assertThat(x.path("end").path("code").asInt()).isZero();
    }

    @Test
    void aMalformedBodyIsA400ImmediateResponseInOpenAisShape() throws Exception {
        byte[] notAList = ("{\"model\":\"" + TestCluster.MODEL + "\",\"messages\":\"not a list\"}")
                .getBytes(StandardCharsets.UTF_8);
        byte[] notJson = "{not json".getBytes(StandardCharsets.UTF_8);
        JsonNode exchanges;
        try (NodeEnvoy node = NodeEnvoy.start(dir.resolve("malformed"), protos, cluster.router().extProcPort(), true,
                plan(exchange("not-a-list", "/v1/chat/completions", notAList, 2, null, false),
                        exchange("not-json", "/v1/completions", notJson, 1, null, false)))) {
            exchanges = node.await("summary", RUN).path("exchanges");
        }
        for (JsonNode x : exchanges) {
            JsonNode immediate = x.path("immediate");
            assertThat(immediate.isObject()).as(x.path("name").asText() + " is refused: " + x).isTrue();
            assertThat(immediate.path("status").asInt()).isEqualTo(400);
            assertThat(set(immediate.path("headers"))).containsEntry("content-type", "application/json");
            JsonNode error = JSON.readTree(Base64.getDecoder().decode(immediate.path("body").asText())).path("error");
            assertThat(error.path("code").asInt()).isEqualTo(400);
            assertThat(error.path("type").asText()).isEqualTo("BadRequestError");
            assertThat(error.path("message").asText()).isNotBlank();
            assertThat(x.has("requestHeaders")).as("no decision comes with a refusal").isFalse();
            assertThat(x.path("end").path("code").asInt()).isZero();
        }
        JsonNode first = JSON.readTree(Base64.getDecoder().decode(exchanges.get(0).path("immediate").path("body")
                .asText())).path("error");
        assertThat(first.path("param").asText()).isEqualTo("messages");
        assertThat(cluster.routerInFlight()).isZero();
    }

    @Test
    void withSecureServingOffTheSameExchangeRunsInPlaintext() throws Exception {
        try (TestCluster plain = TestCluster.start(2, b -> b, o -> o.with(x -> {
            x.extProcPort = 0;
            x.secureServing = false;
        }))) {
            byte[] body = chat("plaintext, é").getBytes(StandardCharsets.UTF_8);
            List<String> sse = sseChunks(9);
            JsonNode x;
            try (NodeEnvoy node = NodeEnvoy.start(dir.resolve("plaintext"), protos, plain.router().extProcPort(),
                    false, plan(exchange("plain", "/v1/chat/completions", body, 3, sse, false)))) {
                x = node.await("summary", RUN).path("exchanges").get(0);
            }
            assertRouted(x, plain, body);
            assertEchoed(x, sse);
            assertThat(x.path("end").path("code").asInt()).isZero();
            await().atMost(Duration.ofSeconds(5)).until(() -> plain.routerInFlight() == 0);
        }
    }

    /**
     * The decision as Envoy acts on it: a destination that is one of the pods, the same in the header and in
     * {@code envoy.lb}'s metadata, the body's length, the route cache cleared, and the body given back unchanged.
     */
    private static String assertRouted(JsonNode x, TestCluster c, byte[] body) {
        JsonNode rh = x.path("requestHeaders");
        assertThat(rh.isObject()).as("the picker answered the request headers: " + x).isTrue();
        Map<String, String> set = set(rh.path("mutation"));
        String destination = set.get("x-gateway-destination-endpoint");
        List<String> pods = new ArrayList<>();
        for (int i = 0; i < c.pods().size(); i++) {
            pods.add(address(c, i));
        }
        assertThat(destination).isIn(pods);
        assertThat(set).containsEntry("content-length", Integer.toString(body.length));
        assertThat(rh.path("clear_route_cache").asBoolean()).isTrue();
        assertThat(rh.path("dynamic_metadata")).isEqualTo(JSON.createObjectNode().set("envoy.lb",
                JSON.createObjectNode().put("x-gateway-destination-endpoint", destination)));
        JsonNode given = x.path("bodyGivenBack");
        assertThat(Base64.getDecoder().decode(given.path("body").asText())).as("the body given back").isEqualTo(body);
        JsonNode pieces = given.path("pieces");
        assertThat(pieces.get(pieces.size() - 1).path("end_of_stream").asBoolean()).isTrue();
        return destination;
    }

    /** Every response chunk comes back as it was sent, only the last ending the stream. */
    private static void assertEchoed(JsonNode x, List<String> sent) {
        JsonNode echoes = x.path("echoes");
        assertThat(echoes).hasSize(sent.size());
        for (int i = 0; i < sent.size(); i++) {
            assertThat(new String(Base64.getDecoder().decode(echoes.get(i).path("body").asText()),
                    StandardCharsets.UTF_8)).as("echo " + i).isEqualTo(sent.get(i));
            assertThat(echoes.get(i).path("end_of_stream").asBoolean()).as("echo " + i + " ends the stream")
                    .isEqualTo(i == sent.size() - 1);
        }
    }

    private static Map<String, String> set(JsonNode mutation) {
        Map<String, String> out = new LinkedHashMap<>();
        mutation.path("set").forEach(h -> out.put(h.path("key").asText(), h.path("value").asText()));
        return out;
    }

    private static String address(TestCluster c, int i) {
        return "127.0.0.1:" + c.pod(i).port();
    }

    private static String chat(String content) {
        return "{\"model\":\"" + TestCluster.MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\""
                + content + "\"}],\"max_tokens\":8,\"stream\":true}";
    }

    /** An SSE stream as vLLM writes it, the last chunk carrying the usage (with {@code promptTokens}). */
    private static List<String> sseChunks(int promptTokens) {
        return List.of(
                "data: {\"choices\":[{\"delta\":{\"content\":\"né\"}}]}\n\n",
                "data: {\"choices\":[{\"delta\":{\"content\":\"✓\"}}]}\n\n",
                "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":" + promptTokens + ",\"completion_tokens\":2,"
                        + "\"total_tokens\":" + (promptTokens + 2) + "}}\n\ndata: [DONE]\n\n");
    }

    private static Map<String, Object> exchange(String name, String path, byte[] body, int chunks, List<String> sse,
                                                boolean pause) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("path", path);
        m.put("body", Base64.getEncoder().encodeToString(body));
        m.put("chunks", chunks);
        m.put("pause", pause);
        if (sse != null) {
            m.put("response", Map.of("status", 200, "contentType", "text/event-stream", "chunks", sse.stream()
                    .map(s -> Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8))).toList()));
        }
        return m;
    }

    @SafeVarargs
    private static Map<String, Object> plan(Map<String, Object>... exchanges) {
        return Map.of("exchanges", List.of(exchanges));
    }

    private static double metric(String name) {
        return cluster.http().metrics(cluster.adminUrl("/metrics")).sum(name);
    }
}
