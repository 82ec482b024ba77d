package dev.homing.sim.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.sim.engine.CostModel;
import dev.homing.sim.engine.EngineConfig;
import dev.homing.sim.engine.EngineStats;
import dev.homing.sim.engine.Preset;
import dev.homing.sim.tokenizer.ChatMessage;
import dev.homing.sim.tokenizer.ChatTemplate;
import dev.homing.sim.tokenizer.SimTokenizer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real pod on 127.0.0.1, spoken to with the JDK's HTTP client (and a raw socket to hang up mid-stream). */
class SimPodIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MODEL = "Qwen/Qwen2.5-0.5B-Instruct";
    private static final long MS = 1_000_000L;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private SimPod pod;

    @AfterEach
    void stop() {
        if (pod != null) {
            pod.close();
        }
    }

    /** The CPU preset with steps of at least {@code decodeMillis}, cheap prefill and no request overhead. */
    private static EngineConfig engine(long decodeMillis) {
        return Preset.CPU_QWEN2_5_0_5B.engine().withCost(CostModel.simple(0, 20_000, decodeMillis * MS, 0));
    }

    private SimPod start(EngineConfig engine, SimPodConfig.Builder builder) {
        pod = SimPod.start(builder.engine(engine).podName("pod-a").seed(7).build());
        return pod;
    }

    private SimPod start(long decodeMillis, SimPodConfig.Builder builder) {
        return start(engine(decodeMillis), builder);
    }

    private SimPod start(long decodeMillis) {
        return start(decodeMillis, SimPodConfig.builder());
    }

    private HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(pod.baseUrl() + path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(pod.baseUrl() + path)).timeout(Duration.ofSeconds(30))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(String body) throws IOException {
        return JSON.readTree(body);
    }

    @Test
    void streamingArrivesChunkByChunk() throws Exception {
        start(40);
        HttpResponse<Stream<String>> res = http.send(HttpRequest.newBuilder(URI.create(pod.baseUrl()
                        + "/v1/completions")).POST(HttpRequest.BodyPublishers.ofString("""
                        {"model":"%s","prompt":"Write one sentence about topic number 7 in cloud computing.",
                         "max_tokens":25,"ignore_eos":true,"stream":true}""".formatted(MODEL))).build(),
                HttpResponse.BodyHandlers.ofLines());
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(res.headers().firstValue("content-type")).hasValueSatisfying(v -> assertThat(v)
                .startsWith("text/event-stream"));
        assertThat(res.headers().firstValue(SimPod.POD_HEADER)).hasValue("pod-a");

        List<JsonNode> chunks = new ArrayList<>();
        boolean done = false;
        Integer runningAtFirstChunk = null;
        try (Stream<String> lines = res.body()) {
            for (Iterator<String> it = lines.iterator(); it.hasNext(); ) {
                String line = it.next();
                if (line.isEmpty()) {
                    continue;
                }
                assertThat(line).startsWith("data: ");
                String data = line.substring(6);
                if (data.equals("[DONE]")) {
                    done = true;
                    break;
                }
                chunks.add(json(data));
                if (runningAtFirstChunk == null) {
                    runningAtFirstChunk = pod.stats().running(); // the other 24 tokens are still to come
                }
            }
        }
        assertThat(done).isTrue();
        assertThat(runningAtFirstChunk).isEqualTo(1);
        assertThat(chunks).hasSize(25);
        assertThat(chunks.getFirst().get("object").asText()).isEqualTo("text_completion");
        assertThat(chunks.getFirst().get("id").asText()).startsWith("cmpl-");
        assertThat(chunks.getFirst().at("/choices/0/finish_reason").isNull()).isTrue();
        assertThat(chunks.getLast().at("/choices/0/finish_reason").asText()).isEqualTo("length");
        assertThat(chunks).allSatisfy(c -> assertThat(c.at("/choices/0/text").asText()).startsWith(" "));
    }

    @Test
    void aRepeatedPromptReportsCachedTokens() throws Exception {
        start(2);
        String prompt = SimTokenizer.builtin().randomText(200, new SplittableRandom(1));
        String body = """
                {"model":"%s","prompt":"%s","max_tokens":3}""".formatted(MODEL, prompt);

        JsonNode first = json(post("/v1/completions", body).body());
        JsonNode second = json(post("/v1/completions", body).body());

        assertThat(first.at("/usage/prompt_tokens").asInt()).isEqualTo(200);
        assertThat(first.at("/usage/completion_tokens").asInt()).isEqualTo(3);
        assertThat(first.at("/usage/total_tokens").asInt()).isEqualTo(203);
        assertThat(first.at("/usage/prompt_tokens_details/cached_tokens").asInt()).isZero();
        assertThat(second.at("/usage/prompt_tokens_details/cached_tokens").asInt()).isEqualTo(192);
        assertThat(second.at("/choices/0/finish_reason").asText()).isEqualTo("length");
        EngineStats stats = pod.stats();
        assertThat(stats.prefixCacheHits()).isEqualTo(192);
        assertThat(stats.prefixCacheQueries()).isEqualTo(400);
    }

    @Test
    void chatStreamsRoleFirstAndUsageLast() throws Exception {
        start(2);
        String body = """
                {"model":"%s","messages":[{"role":"system","content":"%s"},
                 {"role":"user","content":[{"type":"text","text":"Write one sentence about clouds."}]}],
                 "max_completion_tokens":4,"ignore_eos":true,"stream":true,"stream_options":{"include_usage":true}}"""
                .formatted(MODEL, SimTokenizer.builtin().randomText(100, new SplittableRandom(2)));
        post("/v1/chat/completions", body);
        HttpResponse<String> res = post("/v1/chat/completions", body);

        List<JsonNode> chunks = new ArrayList<>();
        for (String event : res.body().split("\n\n")) {
            assertThat(event).startsWith("data: ");
            if (!event.equals("data: [DONE]")) {
                chunks.add(json(event.substring(6)));
            }
        }
        assertThat(res.body()).endsWith("data: [DONE]\n\n");
        assertThat(chunks).hasSize(1 + 4 + 1);
        assertThat(chunks.getFirst().get("object").asText()).isEqualTo("chat.completion.chunk");
        assertThat(chunks.getFirst().at("/choices/0/delta/role").asText()).isEqualTo("assistant");
        assertThat(chunks.getFirst().at("/choices/0/delta/content").asText()).isEmpty();
        assertThat(chunks.get(4).at("/choices/0/finish_reason").asText()).isEqualTo("length");
        JsonNode usage = chunks.getLast();
        assertThat(usage.get("choices")).isEmpty();
        assertThat(usage.at("/usage/completion_tokens").asInt()).isEqualTo(4);
        assertThat(usage.at("/usage/prompt_tokens_details/cached_tokens").asInt()).isPositive();
    }

    @Test
    void nonStreamingChatAndEchoMode() throws Exception {
        start(2, SimPodConfig.builder().mode(OutputMode.ECHO).enablePromptTokensDetails(false));
        JsonNode chat = json(post("/v1/chat/completions", """
                {"model":"%s","messages":[{"role":"user","content":"Hello there, world."}]}""".formatted(MODEL))
                .body());
        assertThat(chat.get("object").asText()).isEqualTo("chat.completion");
        assertThat(chat.get("id").asText()).startsWith("chatcmpl-");
        assertThat(chat.at("/choices/0/message/role").asText()).isEqualTo("assistant");
        assertThat(chat.at("/choices/0/message/content").asText()).isEqualTo("Hello there, world.");
        assertThat(chat.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(chat.at("/usage/completion_tokens").asInt()).isEqualTo(6); // 5 tokens and the EOS
        assertThat(chat.at("/usage").has("prompt_tokens_details")).isFalse();

        JsonNode tokens = json(post("/v1/completions", """
                {"model":"%s","prompt":[[72, 105], [1, 2, 3]],"max_tokens":16}""".formatted(MODEL)).body());
        assertThat(tokens.at("/choices/0/index").asInt()).isZero();
        assertThat(tokens.at("/choices/0/text").asText()).isEqualTo("Hi");
        assertThat(tokens.at("/choices/1/index").asInt()).isEqualTo(1);
        assertThat(tokens.at("/choices/1/text").asText()).isEqualTo("\u0001\u0002\u0003");
        assertThat(tokens.at("/usage/prompt_tokens").asInt()).isEqualTo(5);
        assertThat(tokens.at("/usage/completion_tokens").asInt()).isEqualTo(3 + 4);
    }

    @Test
    void randomModeEndsWithStopUnlessEosIsIgnored() throws Exception {
        start(2, SimPodConfig.builder().eosProbability(1.0));
        JsonNode stops = json(post("/v1/completions", """
                {"model":"%s","prompt":"Hi","max_tokens":50}""".formatted(MODEL)).body());
        JsonNode ignores = json(post("/v1/completions", """
                {"model":"%s","prompt":"Hi","max_tokens":5,"ignore_eos":true}""".formatted(MODEL)).body());
        assertThat(stops.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(stops.at("/usage/completion_tokens").asInt()).isEqualTo(2);
        assertThat(ignores.at("/choices/0/finish_reason").asText()).isEqualTo("length");
        assertThat(ignores.at("/usage/completion_tokens").asInt()).isEqualTo(5);
        assertThat(pod.stats().finishedStop()).isEqualTo(1);
    }

    @Test
    void metricsCarryVllmNamesAndLabels(@TempDir Path dir) throws Exception {
        start(2, SimPodConfig.builder().servedModelNames(List.of("qwen", "other")));
        post("/v1/completions", """
                {"model":"other","prompt":"Hello","max_tokens":2}""");
        HttpResponse<String> res = get("/metrics");

        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(res.headers().firstValue("content-type")).hasValueSatisfying(v -> assertThat(v)
                .startsWith("text/plain; version=0.0.4"));
        String labels = "{engine=\"0\",model_name=\"qwen\"}";
        assertThat(res.body()).contains(
                "vllm:num_requests_running" + labels + " 0.0",
                "vllm:num_requests_waiting" + labels + " 0.0",
                "vllm:kv_cache_usage_perc" + labels + " 0.0",
                "vllm:prompt_tokens_total" + labels + " 1.0",
                "vllm:generation_tokens_total" + labels + " 2.0",
                "vllm:prefix_cache_queries_total" + labels + " 1.0",
                "vllm:prefix_cache_hits_total" + labels + " 0.0",
                "vllm:num_preemptions_total" + labels + " 0.0",
                "vllm:request_success_total{engine=\"0\",finished_reason=\"length\",model_name=\"qwen\"} 1.0",
                "vllm:request_success_total{engine=\"0\",finished_reason=\"abort\",model_name=\"qwen\"} 0.0",
                "vllm:cache_config_info{block_size=\"16\"",
                "num_gpu_blocks=\"21845\"",
                "vllm:time_to_first_token_seconds_bucket{engine=\"0\",model_name=\"qwen\",le=\"0.001\"}",
                "vllm:time_to_first_token_seconds_count" + labels + " 1",
                "vllm:inter_token_latency_seconds_bucket{engine=\"0\",model_name=\"qwen\",le=\"0.01\"}",
                "vllm:inter_token_latency_seconds_count" + labels + " 1",
                "vllm:e2e_request_latency_seconds_bucket{engine=\"0\",model_name=\"qwen\",le=\"7680.0\"} 1");

        Promtool.assertOnlyVllmNamingComplaints(res.body(), dir);
    }

    @Test
    void errorsHaveTheOpenAiShape() throws Exception {
        start(engine(2).withMaxModelLen(64), SimPodConfig.builder());
        assertError(post("/v1/completions", "{not json"), 400, "BadRequestError", null, "not valid JSON");
        assertError(post("/v1/completions", "[1]"), 400, "BadRequestError", null, "JSON object");
        assertError(post("/v1/completions", "{\"prompt\":\"x\"}"), 400, "BadRequestError", "model", "required");
        assertError(post("/v1/completions", "{\"model\":\"%s\"}".formatted(MODEL)), 400, "BadRequestError",
                "prompt", "required");
        assertError(post("/v1/completions", "{\"model\":\"%s\",\"prompt\":\"x\",\"max_tokens\":\"many\"}"
                .formatted(MODEL)), 400, "BadRequestError", "max_tokens", "integer");
        assertError(post("/v1/completions", "{\"model\":\"%s\",\"prompt\":\"x\",\"stream\":1}".formatted(MODEL)),
                400, "BadRequestError", "stream", "boolean");
        assertError(post("/v1/completions", "{\"model\":\"%s\",\"prompt\":[999999]}".formatted(MODEL)), 400,
                "BadRequestError", "prompt", "Token id 999999 is out of vocabulary");
        assertError(post("/v1/chat/completions", "{\"model\":\"%s\",\"messages\":[{\"content\":\"x\"}]}"
                .formatted(MODEL)), 400, "BadRequestError", "messages", "role");
        assertError(post("/v1/completions", "{\"model\":\"gpt-4\",\"prompt\":\"x\"}"), 404, "NotFoundError", "model",
                "The model `gpt-4` does not exist.");
        String longPrompt = SimTokenizer.builtin().randomText(60, new SplittableRandom(3));
        int chatTokens = SimTokenizer.builtin().encode(ChatTemplate.render(List.of(new ChatMessage("user",
                longPrompt)), true)).length;
        assertError(post("/v1/completions", "{\"model\":\"%s\",\"prompt\":\"%s\",\"max_tokens\":10}"
                        .formatted(MODEL, longPrompt)), 400, "BadRequestError", "prompt",
                "'max_tokens' or 'max_completion_tokens' is too large: 10. This model's maximum context length is 64 "
                        + "tokens and your request has 60 input tokens (10 > 64 - 60).");
        assertError(post("/v1/completions", "{\"model\":\"%s\",\"prompt\":\"%s\"}".formatted(MODEL,
                        SimTokenizer.builtin().randomText(50, new SplittableRandom(4)))), 400, "BadRequestError",
                "prompt", "is too large: 16. This model's maximum context length is 64 tokens and your request has 50");
        assertError(post("/v1/chat/completions", ("{\"model\":\"%s\",\"messages\":[{\"role\":\"user\","
                        + "\"content\":\"%s\"}]}").formatted(MODEL, longPrompt)), 400, "BadRequestError", "messages",
                "This model's maximum context length is 64 tokens. However, your request has " + chatTokens
                        + " input tokens. Please reduce the length of the input messages.");
        assertError(get("/v2/nothing"), 404, "NotFoundError", null, "Not Found");
        assertError(get("/v1/completions"), 405, "MethodNotAllowedError", null, "GET");
        assertThat(pod.stats().arriving() + pod.stats().waiting() + pod.stats().running()).isZero();
    }

    private static void assertError(HttpResponse<String> res, int status, String type, String param, String message)
            throws IOException {
        assertThat(res.statusCode()).isEqualTo(status);
        assertThat(res.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(res.headers().firstValue(SimPod.POD_HEADER)).hasValue("pod-a");
        JsonNode error = json(res.body()).get("error");
        assertThat(error.get("type").asText()).isEqualTo(type);
        assertThat(error.get("code").asInt()).isEqualTo(status);
        assertThat(error.get("message").asText()).contains(message);
        if (param == null) {
            assertThat(error.get("param").isNull()).isTrue();
        } else {
            assertThat(error.get("param").asText()).isEqualTo(param);
        }
    }

    @Test
    void modelsAndHealth() throws Exception {
        start(2, SimPodConfig.builder().model("/models/qwen").servedModelNames(List.of("qwen", "qwen-alias")));
        JsonNode models = json(get("/v1/models").body());
        assertThat(models.get("object").asText()).isEqualTo("list");
        assertThat(models.get("data")).hasSize(2);
        JsonNode card = models.get("data").get(0);
        assertThat(card.get("id").asText()).isEqualTo("qwen");
        assertThat(card.get("object").asText()).isEqualTo("model");
        assertThat(card.get("owned_by").asText()).isEqualTo("vllm");
        assertThat(card.get("root").asText()).isEqualTo("/models/qwen");
        assertThat(card.get("parent").isNull()).isTrue();
        assertThat(card.get("max_model_len").asInt()).isEqualTo(32_768);
        assertThat(models.get("data").get(1).get("id").asText()).isEqualTo("qwen-alias");

        HttpResponse<String> health = get("/health");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).isEmpty();
        assertThat(health.headers().firstValue(SimPod.POD_HEADER)).hasValue("pod-a");
    }

    @Test
    void aClientThatHangsUpMidStreamFreesItsRequest() throws Exception {
        start(20);
        String body = """
                {"model":"%s","prompt":"Tell me a long story.","max_tokens":2000,"ignore_eos":true,"stream":true}"""
                .formatted(MODEL);
        try (Socket socket = new Socket("127.0.0.1", pod.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body)
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.UTF_8));
            int chunks = 0;
            for (String line = in.readLine(); line != null && chunks < 3; line = in.readLine()) {
                if (line.startsWith("data: ")) {
                    chunks++;
                }
            }
            assertThat(chunks).isEqualTo(3);
            assertThat(pod.stats().running()).isEqualTo(1);
            assertThat(pod.stats().usedBlocks()).isPositive();
        }

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            EngineStats stats = pod.stats();
            assertThat(stats.running()).isZero();
            assertThat(stats.waiting()).isZero();
            assertThat(stats.usedBlocks()).isZero();
            assertThat(stats.finishedAbort()).isEqualTo(1);
        });
        assertThat(pod.stats().generationTokens()).isLessThan(2000);
    }

    @Test
    void aPortInUseFailsLoudly() {
        start(2);
        SimPodConfig clash = SimPodConfig.builder().port(pod.port()).build();
        assertThatThrownBy(() -> SimPod.start(clash).close())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(Integer.toString(pod.port()));
    }
}
