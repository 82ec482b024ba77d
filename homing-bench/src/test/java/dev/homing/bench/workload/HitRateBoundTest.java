package dev.homing.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.homing.sim.tokenizer.SimTokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class HitRateBoundTest {

    private static Workload trace(int[]... prompts) {
        List<WorkloadRequest> requests = new ArrayList<>();
        for (int[] p : prompts) {
            requests.add(request("m", p));
        }
        return new Workload("hand-made", requests, List.of(), 1, Map.of());
    }

    private static WorkloadRequest request(String model, int[] tokens) {
        return new WorkloadRequest("r", -1, 0, model, Prompt.text("unused", tokens), 1, true, -1, -1, 0);
    }

    private static int[] range(int from, int toInclusive) {
        return IntStream.rangeClosed(from, toInclusive).toArray();
    }

    private static int[] of(int... tokens) {
        return tokens;
    }

    @Test
    void longestSharedFullBlocksCappedBelowThePromptLength() {
        Workload w = trace(
                range(1, 10),                        // 10 tokens: nothing before it -> 0
                range(1, 10),                        // same: 2 full blocks, cap (10-1)/4 = 2 -> 8
                range(1, 8),                         // exactly 2 blocks, both cached, cap (8-1)/4 = 1 -> 4
                of(1, 2, 3, 4, 9, 9, 9, 9, 9),       // first block only -> 4
                of(7, 1, 2, 3, 4));                  // diverges at token 0 -> 0
        assertThat(HitRateBound.of(w, 4)).isCloseTo(16.0 / 42, within(1e-12));
    }

    @Test
    void anEarlierPromptsPartialLastBlockWasNeverCached() {
        // A caches one full block [1..4]; tokens 5, 6 sit in a partial block
        Workload w = trace(range(1, 6), range(1, 9));
        assertThat(HitRateBound.of(w, 4)).isCloseTo(4.0 / 15, within(1e-12));
        // with blocks of 2, A's three blocks are all full: B shares 6 of its 9 tokens
        assertThat(HitRateBound.of(w, 2)).isCloseTo(6.0 / 15, within(1e-12));
    }

    @Test
    void onlyEarlierRequestsCountAndAPromptOfExactlyOneBlockReusesNothing() {
        int[] longer = range(1, 9);
        int[] oneBlock = range(1, 4);
        // the one-block prompt could reuse [1..4] but must compute its last token: cap (4-1)/4 = 0 blocks
        assertThat(HitRateBound.of(trace(longer, oneBlock), 4)).isZero();
        // the other way round, the long prompt reuses the block the short one cached
        assertThat(HitRateBound.of(trace(oneBlock, longer), 4)).isCloseTo(4.0 / 13, within(1e-12));
        // a 3-token prompt caches nothing at block size 4
        assertThat(HitRateBound.of(trace(range(1, 3), range(1, 12)), 4)).isZero();
    }

    @Test
    void sharingAnyEarlierPromptNotJustTheLastOne() {
        Workload w = trace(range(1, 16), range(100, 120), range(1, 16));
        // third matches the first: 4 full blocks, cap 15/4 = 3
        assertThat(HitRateBound.of(w, 4)).isCloseTo(12.0 / (16 + 21 + 16), within(1e-12));
    }

    @Test
    void aBranchSharesOnlyUpToWhereItLeftTheTrunk() {
        int[] a = range(1, 16);
        int[] b = range(1, 16);
        b[9] = 99; // differs in block 2 (tokens 8..11)
        int[] c = b.clone();
        // c matches b for all 4 blocks (cap 3), and a for 2
        assertThat(HitRateBound.of(trace(a, b, c), 4)).isCloseTo((8 + 12) / 48.0, within(1e-12));
    }

    @Test
    void differentModelsNeverShare() {
        List<WorkloadRequest> requests = List.of(request("a", range(1, 9)), request("b", range(1, 9)),
                request("a", range(1, 9)));
        Workload w = new Workload("models", requests, List.of(), 1, Map.of());
        assertThat(HitRateBound.of(w, 4)).isCloseTo(8.0 / 27, within(1e-12));
    }

    @Test
    void promptsWithoutTokensAreTokenizedAsTheEngineWould() {
        String text = " the of and to a in is it you that he was for on are with as i his they";
        List<WorkloadRequest> requests = List.of(
                new WorkloadRequest("a", 0, 0, "m", new Prompt(text, List.of(), null), 1, true, -1, -1, 0),
                new WorkloadRequest("b", 0, 0, "m", new Prompt(text, List.of(), null), 1, true, -1, -1, 0));
        int n = SimTokenizer.builtin().encode(text).length;
        assertThat(n).isEqualTo(20);
        assertThat(HitRateBound.of(new Workload("t", requests, List.of(), 1, Map.of()), 4))
                .isCloseTo(16.0 / 40, within(1e-12));
    }

    @Test
    void emptyWorkloadAndBadBlockSize() {
        assertThat(HitRateBound.of(trace(), 16)).isZero();
        assertThatThrownBy(() -> HitRateBound.of(trace(range(1, 4)), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blockSize");
    }

    @Test
    void llmD73PercentOnePassReusesEverySystemPromptAfterItsFirstUse() {
        // 150 groups x 5: each group's first prompt is cold, the other four reuse the 6,000-token system prompt
        Workload w = Workloads.create("shared-prefix", WorkloadAssertions.params("num_groups", "150",
                "num_prompts_per_group", "5", "system_prompt_len", "6000", "question_len", "1200", "output_len",
                "1000", "concurrency", "8"), 1);
        assertThat(w.requests()).hasSize(750);
        assertThat(HitRateBound.of(w, 16)).isCloseTo(150 * 4 * 6000.0 / (750 * 7200), within(1e-12));
        // at block size 64 only 93 whole blocks (5,952 tokens) of the system prompt are reusable
        assertThat(HitRateBound.of(w, 64)).isCloseTo(150 * 4 * 5952.0 / (750 * 7200), within(1e-12));
    }
}
