package dev.homing.bench.policy;

import static dev.homing.bench.policy.Requests.repeat;
import static dev.homing.bench.policy.Requests.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pre-June-2026 sgl-router policy, sgl-project/sglang b6f2064 sgl-router/src/policies/cache_aware.rs. */
class Sglang2025CacheAwareTest {

    private static final String SYSTEM = repeat('s', 80);

    private final Sglang2025CacheAware policy = new Sglang2025CacheAware(2, () -> 0L);

    @Test
    void aColdRequestGoesToTheTenantWithTheFewestCharactersNotTheLeastLoaded() {
        Placement first = policy.place(text(repeat('a', 1000)));   // chars [0, 0]: tenant 0
        assertThat(first.pod()).isZero();
        first.finished(1);
        assertThat(policy.place(text("x")).pod()).isEqualTo(1);    // chars [1000, 0]: tenant 1, stays in flight
        // loads [0, 1], chars [1000, 1]: get_smallest_tenant is 1 although 0 is idle.
        assertThat(policy.place(text(repeat('y', 50))).pod()).isEqualTo(1);
    }

    @Test
    void balancedAndMatchingMoreThanTheThresholdGoesToTheMatchedWorkerEvenWhenBusier() {
        policy.place(text(SYSTEM + repeat('a', 20)));    // cold: worker 0, loads [1, 0]
        // 80 of 100 characters match (0.8 > 0.3): worker 0 although 1 is idle (1 − 0 is no imbalance).
        assertThat(policy.place(text(SYSTEM + repeat('b', 20))).pod()).isZero();
        assertThat(policy.load(0)).isEqualTo(2);
    }

    @Test
    void matchingAtMostTheThresholdGoesToTheSmallestTenant() {
        policy.place(text(repeat('s', 30) + repeat('a', 70)));   // worker 0
        // 30 of 100 characters match: 0.3 is not more than 0.3.
        assertThat(policy.place(text(repeat('s', 30) + repeat('c', 70))).pod()).isEqualTo(1);
        // 31 of 100 is.
        assertThat(policy.place(text(repeat('s', 30) + "a" + repeat('d', 69))).pod()).isZero();
    }

    @Test
    void imbalancedOnBothThresholdsGoesToTheLeastLoadedDespiteTheMatch() {
        for (int i = 0; i < 65; i++) {
            // [64, 0] is not imbalanced (64 is not more than 64), so all 65 stick to worker 0.
            assertThat(policy.place(text(SYSTEM + "q" + i)).pod()).isZero();
        }
        // [65, 0]: 65 − 0 > 64 and 65 > 1.5 · 0.
        assertThat(policy.place(text(SYSTEM + "q65")).pod()).isEqualTo(1);
        // The imbalanced pick is recorded in the tree: worker 1 now owns the text it was sent.
        CharRadixTree.Match m = policy.tree().match(SYSTEM + "q65");
        assertThat(m.matchedChars()).isEqualTo(SYSTEM.length() + 3);
        assertThat(m.tenant()).isEqualTo(1);
    }

    @Test
    void theAbsoluteGapAloneIsNoImbalanceWhenTheRatioIsUnderTheRelativeThreshold() {
        String a = repeat('a', 100);
        String b = repeat('b', 100);
        policy.place(text(a));                              // worker 0
        policy.place(text(b));                              // worker 1
        for (int i = 0; i < 134; i++) {
            policy.place(text(a + i));
            policy.place(text(b + i));
        }
        assertThat(policy.load(0)).isEqualTo(135);
        assertThat(policy.load(1)).isEqualTo(135);
        for (int i = 0; i < 65; i++) {
            assertThat(policy.place(text(a + "x" + i)).pod()).isZero();
        }
        // [200, 135]: the gap 65 > 64, but 200 ≤ 1.5 · 135 = 202.5, so still balanced: the match wins.
        assertThat(policy.load(0)).isEqualTo(200);
        assertThat(policy.place(text(a + "y")).pod()).isZero();
    }

    @Test
    void theLoadOfARequestIsReleasedExactlyOnce() {
        List<Placement> placed = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            placed.add(policy.place(text(SYSTEM + i)));
        }
        assertThat(policy.load(0)).isEqualTo(3);
        placed.get(0).finished(1);
        placed.get(0).finished(2);
        assertThat(policy.load(0)).isEqualTo(2);
    }
}
