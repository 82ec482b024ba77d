package dev.homing.router.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RequestParser;
import dev.homing.protocol.openai.RoutingFields;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PromptBlocksTest {

    private static final RoutingFields ANY = fields("x");

    private static RoutingFields fields(String prompt) {
        try {
            return RequestParser.parse(ApiKind.COMPLETIONS, ("{\"model\":\"m\",\"prompt\":\"" + prompt + "\"}")
                    .getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static int[] tokens(int n, int salt) {
        return IntStream.range(0, n).map(i -> i < 1024 ? i : i * 31 + salt).toArray();
    }

    @Test
    void tokenBlocksAreChainedPrefixesOneA512TokensWithThePartialLastOneCounted() {
        long[] a = PromptBlocks.keys(ANY, "m", tokens(1300, 1), 1300, 4);
        long[] b = PromptBlocks.keys(ANY, "m", tokens(1300, 2), 1300, 4);
        long[] c = PromptBlocks.keys(ANY, "m", tokens(1024, 0), 1024, 4);
        assertThat(a).hasSize(3); // ceil(1300 / 512)
        assertThat(c).hasSize(2);
        assertThat(a[0]).isEqualTo(b[0]).isEqualTo(c[0]);
        assertThat(a[1]).isEqualTo(b[1]).isEqualTo(c[1]); // the first 1024 tokens are common
        assertThat(a[2]).isNotEqualTo(b[2]);
        assertThat(Arrays.stream(a).distinct().count()).isEqualTo(3);
        // another model is another prefix
        assertThat(PromptBlocks.keys(ANY, "other", tokens(1300, 1), 1300, 4)[0]).isNotEqualTo(a[0]);
    }

    @Test
    void theCountFollowsTheInputLengthWhateverTheSourceHolds() {
        long[] full = PromptBlocks.keys(ANY, "m", tokens(1300, 1), 1300, 4);
        long[] cut = PromptBlocks.keys(ANY, "m", tokens(1300, 1), 600, 4);
        long[] extended = PromptBlocks.keys(ANY, "m", tokens(1300, 1), 2100, 4);
        assertThat(cut).containsExactly(full[0], full[1]);
        assertThat(extended).hasSize(5).startsWith(full);
        assertThat(PromptBlocks.keys(ANY, "m", tokens(1300, 1), 2100, 4)).isEqualTo(extended); // a function of the prompt
    }

    @Test
    void withoutTokensBlocksAreRunsOfBytesAtTheFilesRatio() {
        String shared = "a".repeat(2048);
        long[] x = PromptBlocks.keys(fields(shared + "b".repeat(100)), "m", null, 600, 4.0);
        long[] y = PromptBlocks.keys(fields(shared + "c".repeat(100)), "m", null, 600, 4.0);
        assertThat(x).hasSize(2);
        assertThat(y).hasSize(2);
        // the JSON string's opening quote shifts the runs by one byte: the first 2048 bytes are still common
        assertThat(x[0]).isEqualTo(y[0]);
        assertThat(x[1]).isNotEqualTo(y[1]);
        // at 2 bytes a token the same prompts are cut in 1024-byte runs: the first two are common
        long[] x2 = PromptBlocks.keys(fields(shared + "b".repeat(100)), "m", null, 1100, 2.0);
        long[] y2 = PromptBlocks.keys(fields(shared + "c".repeat(100)), "m", null, 1100, 2.0);
        assertThat(x2).hasSize(3);
        assertThat(x2[1]).isEqualTo(y2[1]);
        assertThat(x2[2]).isNotEqualTo(y2[2]);
        // a prompt shorter than a block still has its one id
        assertThat(PromptBlocks.keys(fields("hi"), "m", null, 3, 4.0)).hasSize(1);
    }
}
