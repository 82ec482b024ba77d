package dev.homing.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CostModelTest {

    private static final CostModel QWEN = Preset.QWEN3_32B_H100_TP2.engine().cost();

    @Test
    void anUncachedPromptPaysTokensAndAttention() {
        // calibration.md §2.4: 7,200 tokens × 66.6 µs × (1 + 3,600/31,242) ≈ 535 ms.
        double work = QWEN.prefillWork(7200, 0);
        long step = QWEN.stepNanos(work, 0, 0, 1, 1024, new SplittableRandom(1));
        assertThat(step / 1e6).isCloseTo(534.7, within(1.0));
    }

    @Test
    void aCachedPrefixStillCostsAttentionButNotTokens() {
        // 1,200 new tokens on 6,000 cached: ≈ 1,200 × 66.6 µs × 1.21 ≈ 97 ms.
        double work = QWEN.prefillWork(1200, 6000);
        assertThat(work * QWEN.prefillNanosPerToken() / 1e6).isCloseTo(96.7, within(1.0));
        assertThat(QWEN.prefillWork(1200, 6000)).isGreaterThan(QWEN.prefillWork(1200, 0));
    }

    @Test
    void decodeStepsAreMemoryBoundWithAFloor() {
        SplittableRandom rng = new SplittableRandom(1);
        long one = QWEN.stepNanos(0, 1, 7_700, 1, 1024, rng);
        long many = QWEN.stepNanos(0, 38, 38L * 7_700, 38, 1024, rng);
        // 11 ms floor; 38 sequences of 7,700 tokens add 43.7 ns × 292,600 ≈ 12.8 ms (llm-d measured 29 ms at QPS 60).
        assertThat(one / 1e6).isCloseTo(11.3, within(0.1));
        assertThat(many / 1e6).isCloseTo(23.8, within(0.1));
    }

    @Test
    void loadFactorInterpolatesLikeTheInferenceSim() {
        CostModel c = CostModel.simple(0, 0, 10_000_000, 0).withTimeFactorUnderLoad(3);
        SplittableRandom rng = new SplittableRandom(1);
        assertThat(c.stepNanos(0, 1, 0, 1, 5, rng)).isEqualTo(10_000_000);
        assertThat(c.stepNanos(0, 3, 0, 3, 5, rng)).isEqualTo(20_000_000);
        assertThat(c.stepNanos(0, 5, 0, 5, 5, rng)).isEqualTo(30_000_000);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void noiseIsClampedToSeventyPercent(long seed) {
        CostModel c = CostModel.simple(0, 1000, 10_000_000, 5_000_000)
                .withRequestOverheadStdDevNanos(50_000_000).withDecodeStdDevNanos(50_000_000)
                .withPrefillStdDevNanos(50_000_000);
        SplittableRandom rng = new SplittableRandom(seed);
        for (int i = 0; i < 200; i++) {
            assertThat(c.requestOverheadNanos(rng)).isBetween(1_500_000L, 8_500_000L);
            assertThat(c.stepNanos(0, 1, 0, 1, 8, rng)).isBetween(3_000_000L, 17_000_000L);
            assertThat(c.stepNanos(20_000, 0, 0, 1, 8, rng)).isBetween(10_000_000L, 34_000_000L);
        }
    }

    @Test
    void withoutNoiseNoRandomnessIsDrawn() {
        SplittableRandom a = new SplittableRandom(3);
        SplittableRandom b = new SplittableRandom(3);
        CostModel c = CostModel.simple(1, 2, 3, 4);
        c.stepNanos(100, 2, 10, 2, 8, a);
        c.requestOverheadNanos(a);
        assertThat(a.nextLong()).isEqualTo(b.nextLong());
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> CostModel.simple(-1, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CostModel.simple(0, 0, 0, 0).withTimeFactorUnderLoad(0.5))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
