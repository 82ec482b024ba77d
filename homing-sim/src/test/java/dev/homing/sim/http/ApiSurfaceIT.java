package dev.homing.sim.http;

import static dev.homing.protocol.fixtures.OpenAiErrors.assertError;
import static dev.homing.sim.http.PodClient.json;
import static dev.homing.sim.http.PodClient.quote;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.sim.engine.CostModel;
import dev.homing.sim.engine.EngineConfig;
import dev.homing.sim.engine.Preset;
import dev.homing.sim.tokenizer.ChatMessage;
import dev.homing.sim.tokenizer.ChatTemplate;
import dev.homing.sim.tokenizer.SimTokenizer;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** vLLM's HTTP surface beyond completions: tokenizer, render, LoRA, n and batches, prefix caching, failures. */
class ApiSurfaceIT {

    private static final String MODEL = "Qwen/Qwen2.5-0.5B-Instruct";
    private static final SimTokenizer TOK = SimTokenizer.builtin();
    private static final long MS = 1_000_000L;

    private SimPod pod;
    private PodClient http;

    @AfterEach
    void stop() {
        if (pod != null) {
            pod.close();
        }
    }

    private static EngineConfig engine() {
        return Preset.CPU_QWEN2_5_0_5B.engine().withCost(CostModel.simple(0, 10_000, 2 * MS, 0)).withMaxLoras(2)
                .withHashSeed("42");
    }

    private void start(SimPodConfig.Builder b) {
        pod = SimPod.start(b.model(MODEL).podName("pod-a").seed(3).build());
        http = new PodClient(pod.baseUrl());
    }

    private void start() {
        start(SimPodConfig.builder().engine(engine()));
    }

    @Test
    void tokenizeAndDetokenizeRoundTrip() {
        start();
        String text = "Hello there, world. Ünïcödé too.";
        JsonNode t = http.postJson("/tokenize", "{\"model\":\"" + MODEL + "\",\"prompt\":" + quote(text)
                + ",\"return_token_strs\":true}");
        int[] expected = TOK.encode(text);
        assertThat(t.get("count").asInt()).isEqualTo(expected.length);
        assertThat(t.get("max_model_len").asInt()).isEqualTo(32_768);
        assertThat(t.get("tokens")).extracting(JsonNode::asInt).containsExactly(box(expected));
        assertThat(t.get("token_strs")).hasSize(expected.length);
        assertThat(t.at("/token_strs/0").asText()).isEqualTo("Hello");

        JsonNode chat = http.postJson("/tokenize", "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(chat.get("tokens")).extracting(JsonNode::asInt).containsExactly(box(TOK.encode(
                ChatTemplate.render(List.of(new ChatMessage("user", "hi")), true))));
        assertThat(chat.get("token_strs").isNull()).isTrue();

        JsonNode d = http.postJson("/detokenize", "{\"tokens\":" + t.get("tokens") + "}");
        assertThat(d.get("prompt").asText()).isEqualTo(text);

        assertError(http.post("/tokenize", "{\"model\":\"nope\",\"prompt\":\"x\"}"), 404, "model");
        assertError(http.post("/tokenize", "{\"prompt\":7}"), 400, "prompt");
        assertError(http.post("/detokenize", "{\"tokens\":[999999]}"), 400, "tokens");
        assertError(http.post("/detokenize", "{}"), 400, "tokens");
    }

    @Test
    void renderShowsWhatTheEngineWouldSee() {
        start();
        JsonNode list = http.postJson("/v1/completions/render", """
                {"model":"%s","prompt":["one two","three"],"max_tokens":5,"temperature":0.5,"cache_salt":"s"}"""
                .formatted(MODEL));
        assertThat(list).hasSize(2);
        assertThat(list.get(0).get("token_ids")).extracting(JsonNode::asInt)
                .containsExactly(box(TOK.encode("one two")));
        assertThat(list.get(1).get("token_ids")).extracting(JsonNode::asInt)
                .containsExactly(box(TOK.encode("three")));
        assertThat(list.get(0).get("request_id").asText()).startsWith("cmpl-");
        assertThat(list.get(0).at("/sampling_params/max_tokens").asInt()).isEqualTo(5);
        assertThat(list.get(0).at("/sampling_params/temperature").asDouble()).isEqualTo(0.5);
        assertThat(list.get(0).get("cache_salt").asText()).isEqualTo("s");
        assertThat(list.get(0).get("model").asText()).isEqualTo(MODEL);
        assertThat(list.get(0).get("token_offsets").isNull()).isTrue();

        JsonNode chat = http.postJson("/v1/chat/completions/render", """
                {"model":"%s","messages":[{"role":"user","content":"hi"}],"stream":true,
                 "stream_options":{"include_usage":true}}""".formatted(MODEL));
        assertThat(chat.isObject()).isTrue();
        assertThat(chat.get("request_id").asText()).startsWith("chatcmpl-");
        assertThat(chat.get("stream").asBoolean()).isTrue();
        assertThat(chat.at("/stream_options/include_usage").asBoolean()).isTrue();
        int prompt = chat.get("token_ids").size();
        assertThat(chat.at("/sampling_params/max_tokens").asInt()).isEqualTo(32_768 - prompt);
        assertThat(pod.stats().steps()).as("render generates nothing").isZero();

        assertError(http.post("/v1/completions/render", "{\"model\":\"nope\",\"prompt\":\"x\"}"), 404, "model");
    }

    @Test
    void healthPingAndVersion() {
        start();
        assertThat(http.get("/ping").statusCode()).isEqualTo(200);
        assertThat(http.post("/ping", "").statusCode()).isEqualTo(200);
        HttpResponse<String> v = http.get("/version");
        assertThat(v.statusCode()).isEqualTo(200);
        assertThat(json(v.body()).get("version").asText()).isEqualTo(SimPod.VLLM_VERSION);
        assertError(http.post("/version", "{}"), 405, null);
        assertError(http.get("/tokenize"), 405, null);
    }

    @Test
    void nChoicesShareThePromptAndAreIndexed() {
        start();
        String prompt = TOK.randomText(40, new SplittableRandom(1));
        JsonNode r = http.postJson("/v1/completions", """
                {"model":"%s","prompt":%s,"n":3,"max_tokens":4,"ignore_eos":true}""".formatted(MODEL, quote(prompt)));
        assertThat(r.get("choices")).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(r.at("/choices/" + i + "/index").asInt()).isEqualTo(i);
            assertThat(r.at("/choices/" + i + "/finish_reason").asText()).isEqualTo("length");
        }
        assertThat(r.at("/usage/prompt_tokens").asInt()).isEqualTo(40);
        assertThat(r.at("/usage/completion_tokens").asInt()).isEqualTo(12);
        // The three children are admitted in one step: the later ones hit the blocks the first just filled.
        assertThat(pod.stats().prefixCacheHits()).isEqualTo(2 * 32);
        assertThat(pod.stats().finishedLength()).isEqualTo(3);

        // A batch of two prompts, streamed, n = 2: four choices, indexed prompt-major, then usage, then [DONE].
        HttpResponse<String> s = http.post("/v1/completions", """
                {"model":"%s","prompt":["alpha beta","gamma"],"n":2,"max_tokens":3,"ignore_eos":true,"stream":true,
                 "stream_options":{"include_usage":true}}""".formatted(MODEL));
        List<JsonNode> chunks = sse(s.body());
        Map<Integer, Integer> perChoice = new HashMap<>();
        Map<Integer, String> finish = new HashMap<>();
        for (JsonNode c : chunks.subList(0, chunks.size() - 1)) {
            int i = c.at("/choices/0/index").asInt();
            perChoice.merge(i, 1, Integer::sum);
            if (!c.at("/choices/0/finish_reason").isNull()) {
                finish.put(i, c.at("/choices/0/finish_reason").asText());
            }
        }
        assertThat(perChoice).containsOnlyKeys(0, 1, 2, 3).allSatisfy((i, n) -> assertThat(n).isEqualTo(3));
        assertThat(finish).containsOnlyKeys(0, 1, 2, 3);
        JsonNode usage = chunks.getLast();
        assertThat(usage.get("choices")).isEmpty();
        assertThat(usage.at("/usage/prompt_tokens").asInt()).isEqualTo(TOK.encode("alpha beta").length
                + TOK.encode("gamma").length);
        assertThat(usage.at("/usage/completion_tokens").asInt()).isEqualTo(12);

        // Chat with n = 2: each choice opens with its role.
        List<JsonNode> chat = sse(http.post("/v1/chat/completions", """
                {"model":"%s","messages":[{"role":"user","content":"hi"}],"n":2,"max_tokens":2,"ignore_eos":true,
                 "stream":true}""".formatted(MODEL)).body());
        assertThat(chat.subList(0, 2)).extracting(c -> c.at("/choices/0/index").asInt() + ":"
                + c.at("/choices/0/delta/role").asText()).containsExactly("0:assistant", "1:assistant");
    }

    /**
     * vLLM's prefix-cache rule seen through {@code usage}: only full blocks hit, and the last prompt token is always
     * computed, so a repeat of L tokens finds ⌊(L − 1)/16⌋ blocks; salts and adapters keep caches apart.
     */
    @ParameterizedTest(name = "{0} tokens -> {1} cached")
    @CsvSource({"15, 0", "16, 0", "17, 16", "31, 16", "32, 16", "33, 32", "64, 48", "65, 64"})
    void cachedTokensFollowVllmsRule(int length, int cached) {
        start(SimPodConfig.builder().engine(engine()).enablePromptTokensDetails(true)
                .loraModules(List.of(new LoraModule("sql-lora", "/a", null))));
        String prompt = tokens(length, length);
        assertThat(cachedTokens(MODEL, prompt, null)).isZero();
        assertThat(cachedTokens(MODEL, prompt, null)).isEqualTo(cached);
        assertThat(cachedTokens(MODEL, prompt, "tenant")).isZero();
        assertThat(cachedTokens(MODEL, prompt, "tenant")).isEqualTo(cached);
        assertThat(cachedTokens("sql-lora", prompt, null)).isZero();
        assertThat(cachedTokens("sql-lora", prompt, null)).isEqualTo(cached);
    }

    /** Completions with a token-id prompt of exactly {@code n} tokens, as JSON. */
    private static String tokens(int n, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(Integer.toString(1000 + rng.nextInt(50_000)));
        }
        return "[" + String.join(",", ids) + "]";
    }

    private int cachedTokens(String model, String promptJson, String salt) {
        JsonNode r = http.postJson("/v1/completions", "{\"model\":" + quote(model) + ",\"prompt\":" + promptJson
                + ",\"max_tokens\":1" + (salt == null ? "" : ",\"cache_salt\":" + quote(salt)) + "}");
        JsonNode details = r.at("/usage/prompt_tokens_details");
        // vLLM leaves prompt_tokens_details out when nothing was cached.
        return details.isMissingNode() ? 0 : details.get("cached_tokens").asInt();
    }

    @Test
    void loraAdaptersLoadServeAndUnload() throws Exception {
        start(SimPodConfig.builder().engine(engine()).loraModules(List.of(
                LoraModule.parse("sql-lora=/adapters/sql"),
                LoraModule.parse(
                        "{\"name\":\"chat-lora\",\"path\":\"/adapters/chat\",\"base_model_name\":\"base\"}"))));
        JsonNode models = json(http.get("/v1/models").body()).get("data");
        assertThat(models).extracting(m -> m.get("id").asText()).containsExactly(MODEL, "sql-lora", "chat-lora");
        assertThat(models.get(1).get("root").asText()).isEqualTo("/adapters/sql");
        assertThat(models.get(1).get("parent").asText()).isEqualTo(MODEL);
        assertThat(models.get(1).get("max_model_len").isNull()).isTrue();
        assertThat(models.get(2).get("parent").asText()).isEqualTo("base");

        HttpResponse<String> load = http.post("/v1/load_lora_adapter",
                "{\"lora_name\":\"new-lora\",\"lora_path\":\"/adapters/new\"}");
        assertThat(load.statusCode()).isEqualTo(200);
        assertThat(load.body()).isEqualTo("Success: LoRA adapter 'new-lora' added successfully.");
        assertError(http.post("/v1/load_lora_adapter", "{\"lora_name\":\"new-lora\",\"lora_path\":\"/x\"}"), 400,
                null);
        assertError(http.post("/v1/load_lora_adapter", "{\"lora_name\":\"x\"}"), 400, null);
        assertThat(json(http.get("/v1/models").body()).get("data")).hasSize(4);

        JsonNode served = http.postJson("/v1/completions",
                "{\"model\":\"new-lora\",\"prompt\":\"Hello\",\"max_tokens\":2}");
        assertThat(served.get("model").asText()).isEqualTo("new-lora");

        HttpResponse<String> unload = http.post("/v1/unload_lora_adapter", "{\"lora_name\":\"new-lora\"}");
        assertThat(unload.body()).isEqualTo("Success: LoRA adapter 'new-lora' removed successfully.");
        assertError(http.post("/v1/unload_lora_adapter", "{\"lora_name\":\"new-lora\"}"), 404, null);
        assertError(http.post("/v1/completions", "{\"model\":\"new-lora\",\"prompt\":\"Hello\"}"), 404, "model");
        assertThat(json(http.get("/v1/models").body()).get("data")).hasSize(3);

        String metrics = http.get("/metrics").body();
        assertThat(metrics).containsPattern(
                "vllm:lora_requests_info\\{max_lora=\"2\",running_lora_adapters=\"\",waiting_lora_adapters=\"\"} "
                        + "1\\.[0-9]+E9");
    }

    @Test
    void loraIsRefusedWhenNotEnabled() {
        start(SimPodConfig.builder().engine(engine().withMaxLoras(0)));
        assertError(http.post("/v1/load_lora_adapter", "{\"lora_name\":\"a\",\"lora_path\":\"/a\"}"), 400, null);
        assertThat(http.get("/metrics").body()).doesNotContain("vllm:lora_requests_info");
    }

    @Test
    void xReturnErrorForcesThatError() {
        start();
        String body = "{\"model\":\"" + MODEL + "\",\"prompt\":\"Hi\"}";
        HttpResponse<String> r = http.post("/v1/completions", body, "X-Return-Error", "429");
        assertThat(r.statusCode()).isEqualTo(429);
        JsonNode e = json(r.body()).get("error");
        assertThat(e.get("type").asText()).isEqualTo("RateLimitError");
        assertThat(e.get("code").asInt()).isEqualTo(429);
        assertThat(e.get("message").asText()).contains("X-Return-Error");
        assertThat(http.post("/v1/chat/completions", "{}", "X-Return-Error", "503").statusCode()).isEqualTo(503);
        assertError(http.post("/v1/completions", body, "X-Return-Error", "teapot"), 400, null);
        assertError(http.post("/v1/completions", body, "X-Return-Error", "200"), 400, null);
        assertThat(pod.stats().steps()).isZero();
    }

    @Test
    void injectedFailuresUseLlmdInferenceSimsTypes() {
        start(SimPodConfig.builder().engine(engine()).failureInjectionRate(100)
                .failureTypes(List.of(FailureType.RATE_LIMIT, FailureType.MODEL_NOT_FOUND)));
        Map<Integer, Integer> seen = new HashMap<>();
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> r = http.post("/v1/completions", "{\"model\":\"" + MODEL + "\",\"prompt\":\"Hi\"}");
            seen.merge(r.statusCode(), 1, Integer::sum);
            JsonNode e = json(r.body()).get("error");
            if (r.statusCode() == 429) {
                assertThat(e.get("message").asText()).isEqualTo("Rate limit reached for " + MODEL + " in "
                        + "organization org-xxx on requests per min (RPM): Limit 3, Used 3, Requested 1.");
            } else {
                assertThat(r.statusCode()).isEqualTo(404);
                assertThat(e.get("param").asText()).isEqualTo("model");
                assertThat(e.get("message").asText()).isEqualTo("The model '" + MODEL + "-nonexistent' does not "
                        + "exist");
            }
        }
        assertThat(seen).containsOnlyKeys(429, 404);
        assertThat(pod.stats().steps()).isZero();
    }

    private static List<JsonNode> sse(String body) {
        List<JsonNode> out = new ArrayList<>();
        assertThat(body).endsWith("data: [DONE]\n\n");
        for (String event : body.split("\n\n")) {
            assertThat(event).startsWith("data: ");
            if (!event.equals("data: [DONE]")) {
                out.add(json(event.substring(6)));
            }
        }
        return out;
    }

    private static Integer[] box(int[] a) {
        Integer[] b = new Integer[a.length];
        for (int i = 0; i < a.length; i++) {
            b[i] = a[i];
        }
        return b;
    }
}
