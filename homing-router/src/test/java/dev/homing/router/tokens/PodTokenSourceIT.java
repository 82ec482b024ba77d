package dev.homing.router.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RequestParser;
import dev.homing.router.fixtures.HttpJson;
import dev.homing.router.fixtures.TestCluster;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Tokens come from the pool's own tokenizer, and a shared prefix is tokenized once. */
class PodTokenSourceIT {

    private static TestCluster cluster;
    private static PodTokenSource source;
    private static TokenPrefixCache cache;

    @BeforeAll
    static void start() {
        cluster = TestCluster.start(2);
        cache = new TokenPrefixCache(1_000_000, 0.8);
        source = new PodTokenSource(cluster.router().pool(), cluster.router().catalog(), HttpClient.newHttpClient(),
                cache);
    }

    @AfterAll
    static void stop() {
        source.close();
        cluster.close();
    }

    private static InferenceRequest request(ApiKind api, String body) throws Exception {
        return new InferenceRequest("t", RequestParser.parse(api, body.getBytes(StandardCharsets.UTF_8)), Map.of());
    }

    private static int[] podTokens(String json) {
        return toInts(HttpJson.json(cluster.http().post(cluster.podUrl(0, "/tokenize"), json)).path("tokens"));
    }

    private static int[] toInts(com.fasterxml.jackson.databind.JsonNode a) {
        int[] out = new int[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.get(i).asInt();
        }
        return out;
    }

    @Test
    void textPromptsAreTokenizedByAPodAndSharedPrefixesComeFromTheCache() throws Exception {
        String system = "You are a precise assistant who answers with care and cites the mechanism. ".repeat(30);
        String p1 = system + "What is a KV cache?";
        long calls = source.calls();
        int[] t1 = source.tokens(request(ApiKind.COMPLETIONS,
                "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"" + p1 + "\"}"), null, Duration.ofSeconds(5)).orElseThrow();
        assertThat(t1).containsExactly(podTokens("{\"prompt\":\"" + p1 + "\"}"));
        assertThat(source.calls()).isEqualTo(calls + 1);

        String p2 = system + "And a prefix?";
        int[] t2 = source.tokens(request(ApiKind.COMPLETIONS,
                "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"" + p2 + "\"}"), null, Duration.ofSeconds(5)).orElseThrow();
        assertThat(source.calls()).as("the shared system prompt was not tokenized again").isEqualTo(calls + 1);
        int[] full = podTokens("{\"prompt\":\"" + p2 + "\"}");
        assertThat(t2.length).isGreaterThan(full.length * 3 / 4);
        assertThat(full).startsWith(t2);
    }

    @Test
    void chatHistoryIsWarmedForTheNextTurn() throws Exception {
        String system = "{\"role\":\"system\",\"content\":\"" + "Be thorough and kind. ".repeat(60) + "\"}";
        String turn1 = "{\"model\":\"" + TestCluster.MODEL + "\",\"messages\":[" + system
                + ",{\"role\":\"user\",\"content\":\"hi\"}]}";
        long calls0 = source.calls();
        source.tokens(request(ApiKind.CHAT_COMPLETIONS, turn1), null, Duration.ofSeconds(5)).orElseThrow();
        // the system prompt alone is tokenized in the background, and cached once its answer is in
        awaitFirstMessageCached(turn1, system);
        long calls = source.calls();
        assertThat(calls).isEqualTo(calls0 + 2);
        // spaced differently around the messages: the same conversation
        String turn2 = "{\"model\":\"" + TestCluster.MODEL + "\", \"messages\": [ " + system
                + " ,\n {\"role\":\"user\",\"content\":\"another question\"} ] }";
        int[] t = source.tokens(request(ApiKind.CHAT_COMPLETIONS, turn2), null, Duration.ofSeconds(5)).orElseThrow();
        assertThat(source.calls()).isEqualTo(calls);
        int[] system0 = podTokens("{\"messages\":[" + system + "],\"add_generation_prompt\":false}");
        assertThat(t).containsExactly(system0);

        String otherSystem = "{\"role\":\"system\",\"content\":\"" + "Be brief and blunt. ".repeat(60) + "\"}";
        String other = "{\"model\":\"" + TestCluster.MODEL + "\",\"messages\":[" + otherSystem
                + ",{\"role\":\"user\",\"content\":\"another question\"}]}";
        int[] o = source.tokens(request(ApiKind.CHAT_COMPLETIONS, other), null, Duration.ofSeconds(5)).orElseThrow();
        assertThat(source.calls()).as("another system prompt is another conversation").isGreaterThan(calls);
        assertThat(o).containsExactly(podTokens("{\"messages\":[" + otherSystem
                + ",{\"role\":\"user\",\"content\":\"another question\"}],\"add_generation_prompt\":false}"));
        // its history is warmed in the background too: let it land before another test counts calls
        awaitFirstMessageCached(other, otherSystem);
    }

    /** Until the conversation of {@code body}'s first message alone, {@code first}, is in the cache. */
    private static void awaitFirstMessageCached(String body, String first) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        int start = body.indexOf(first); // ASCII: characters are bytes
        TokenPrefixCache.Conversation history = TokenPrefixCache.Conversation.of(TestCluster.MODEL, bytes,
                new int[] {start, start + first.length()});
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> cache.has(history, 1));
    }

    @Test
    void tokenIdPromptsNeedNoCallAndUnreachablePodsMeanNoTokens() throws Exception {
        long calls = source.calls();
        assertThat(source.tokens(request(ApiKind.COMPLETIONS, "{\"model\":\"m\",\"prompt\":[5,6,7]}"), null,
                Duration.ofSeconds(1))).hasValueSatisfying(t -> assertThat(t).containsExactly(5, 6, 7));
        assertThat(source.tokens(request(ApiKind.COMPLETIONS, "{\"model\":\"m\",\"prompt\":[[1,2],[3]]}"), null,
                Duration.ofSeconds(1))).hasValueSatisfying(t -> assertThat(t).containsExactly(1, 2));
        assertThat(source.calls()).isEqualTo(calls);
        String served = "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"new text\"}";
        assertThat(source.tokens(request(ApiKind.COMPLETIONS, served), "http://127.0.0.1:1", Duration.ofSeconds(2)))
                .as("a dead render URL is skipped for a pod").isPresent();
        long failures = source.failures();
        assertThat(source.tokens(request(ApiKind.COMPLETIONS, "{\"model\":\"nobody-serves-this\",\"prompt\":\"x\"}"),
                null, Duration.ofMillis(300))).isEmpty();
        assertThat(source.failures()).isEqualTo(failures + 1);
    }
}
