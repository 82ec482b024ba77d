package dev.homing.core.plugins.prefix.approx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.fixtures.Requests;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RoutingFields;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PromptBlockHasherTest {

    private static RoutingFields fields(String body) {
        return Requests.fromBody(ApiKind.COMPLETIONS, body, Map.of()).fields();
    }

    private static long[] hash(String prompt, String salt, int blockBytes, int maxBlocks) {
        String saltField = salt == null ? "" : ",\"cache_salt\":\"" + salt + "\"";
        return PromptBlockHasher.hash(fields("{\"model\":\"m\",\"prompt\":\"" + prompt + "\"" + saltField + "}"),
                "m", blockBytes, maxBlocks);
    }

    @Test
    void sharedPrefixSharesLeadingHashesOnly() {
        long[] a = hash("aaaaaaaabbbbbbbbcccc", null, 8, 10); // "aaaaaaa|abbbbbbb|bcccc" with quotes: 22 bytes -> 3 blocks
        long[] b = hash("aaaaaaaabbbbbbbbdddd", null, 8, 10);
        assertThat(a).hasSize(3);
        assertThat(a[0]).isEqualTo(b[0]);
        assertThat(a[1]).isEqualTo(b[1]);
        assertThat(a[2]).isNotEqualTo(b[2]);
    }

    @Test
    void aChangeInAnEarlyBlockChangesEveryLaterHash() {
        long[] a = hash("aaaaaaaabbbbbbbbcccccccc", null, 8, 10);
        long[] b = hash("Xaaaaaaabbbbbbbbcccccccc", null, 8, 10);
        for (int i = 0; i < a.length; i++) {
            assertThat(a[i]).isNotEqualTo(b[i]);
        }
    }

    @Test
    void cacheSaltAndModelSeparatePrefixes() {
        assertThat(hash("aaaaaaaabbbbbbbb", "s1", 8, 10)[0]).isNotEqualTo(hash("aaaaaaaabbbbbbbb", "s2", 8, 10)[0]);
        assertThat(hash("aaaaaaaabbbbbbbb", null, 8, 10)[0]).isNotEqualTo(hash("aaaaaaaabbbbbbbb", "s1", 8, 10)[0]);
        RoutingFields f = fields("{\"model\":\"m\",\"prompt\":\"aaaaaaaabbbbbbbb\"}");
        assertThat(PromptBlockHasher.hash(f, "m1", 8, 10)[0]).isNotEqualTo(PromptBlockHasher.hash(f, "m2", 8, 10)[0]);
    }

    @Test
    void aRequestNamingNoModelIsHashedAsTheEmptyModel() {
        RoutingFields f = Requests.fromBody(ApiKind.CONVERSATIONS, "{\"items\":[{\"type\":\"message\",\"role\":"
                + "\"user\",\"content\":\"a conversation that names no model at all\"}]}", Map.of()).fields();
        long[] none = PromptBlockHasher.hash(f, null, 8, 10);
        assertThat(none).isNotEmpty().isEqualTo(PromptBlockHasher.hash(f, "", 8, 10));
        assertThat(PromptBlockHasher.hash(f, null, 8, 10)[0]).isNotEqualTo(PromptBlockHasher.hash(f, "m", 8, 10)[0]);
    }

    @Test
    void shortPromptsHaveNoBlocksAndLongOnesAreCapped() {
        assertThat(hash("abc", null, 8, 10)).isEmpty();
        assertThat(hash("aaaaaaaabbbbbbbbcccccccc", null, 8, 2)).hasSize(2);
    }

    private static long[] responses(String body, int blockBytes) {
        return PromptBlockHasher.hash(Requests.fromBody(ApiKind.RESPONSES, body, Map.of()).fields(), "m", blockBytes,
                100);
    }

    /** The pieces hashed as one run: what the bytes of instructions, tools and input give end to end. */
    private static long[] oneRun(String run, int blockBytes) {
        byte[] bytes = run.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        RoutingFields whole = new RoutingFields(ApiKind.RESPONSES, "m", false, false, -1, 1, null,
                dev.homing.protocol.openai.PromptShape.RESPONSE_INPUT, bytes, 0, bytes.length, -1, new int[0],
                new int[] {0, bytes.length}, null, true);
        return PromptBlockHasher.hash(whole, "m", blockBytes, 100);
    }

    @ParameterizedTest(name = "block {0} bytes")
    @ValueSource(ints = {1, 3, 7, 8, 16, 64})
    void aResponsesPromptIsInstructionsToolsAndInputInThatOrderWhateverTheFieldOrder(int blockBytes) {
        String instructions = "\"You are a terse assistant.\"";
        String tools = "[{\"type\":\"function\",\"name\":\"f\"}]";
        String input = "[{\"role\":\"user\",\"content\":\"Hello there\"}]";
        long[] expected = oneRun(instructions + tools + input, blockBytes);
        assertThat(responses("{\"model\":\"m\",\"instructions\":" + instructions + ",\"tools\":" + tools
                + ",\"input\":" + input + "}", blockBytes)).containsExactly(expected);
        assertThat(responses("{\"input\":" + input + ",\"model\":\"m\",\"tools\":" + tools
                + ",\"stream\":true,\"instructions\":" + instructions + "}", blockBytes)).containsExactly(expected);
    }

    @Test
    void theSameInstructionsShareLeadingBlocksAcrossInputs() {
        String head = "{\"model\":\"m\",\"instructions\":\"" + "system prompt ".repeat(10) + "\",\"input\":";
        long[] a = responses(head + "\"first question\"}", 16);
        long[] b = responses(head + "\"another question entirely\"}", 16);
        assertThat(a[0]).isEqualTo(b[0]);
        assertThat(a[7]).isEqualTo(b[7]);
        assertThat(a[a.length - 1]).isNotEqualTo(b[b.length - 1]);
    }

    @Test
    void requestsRoutedOnLoadOnlyHaveNoBlocks() {
        String longInput = "x".repeat(500);
        RoutingFields embeddings = Requests.fromBody(ApiKind.EMBEDDINGS,
                "{\"model\":\"m\",\"input\":\"" + longInput + "\"}", Map.of()).fields();
        assertThat(PromptBlockHasher.hash(embeddings, "m", 8, 100)).isEmpty();
        assertThat(embeddings.estimatedPromptTokens()).isEqualTo((longInput.length() + 2) / 4);
    }
}
