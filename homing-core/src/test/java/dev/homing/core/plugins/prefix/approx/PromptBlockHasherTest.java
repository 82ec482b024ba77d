package dev.homing.core.plugins.prefix.approx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.fixtures.Requests;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RoutingFields;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
    void shortPromptsHaveNoBlocksAndLongOnesAreCapped() {
        assertThat(hash("abc", null, 8, 10)).isEmpty();
        assertThat(hash("aaaaaaaabbbbbbbbcccccccc", null, 8, 2)).hasSize(2);
    }
}
