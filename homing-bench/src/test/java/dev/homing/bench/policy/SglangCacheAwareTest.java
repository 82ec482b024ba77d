package dev.homing.bench.policy;

import static dev.homing.bench.policy.Requests.repeat;
import static dev.homing.bench.policy.Requests.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Hand-made cases on the code paths of smg-project/smg 56ad201 model_gateway/src/policies/cache_aware.rs
 * ({@code select_worker}, {@code select_matched_candidate}, {@code gate_selected_candidate}).
 */
class SglangCacheAwareTest {

    private static final String SYSTEM = repeat('s', 80);

    private static SglangCacheAware policy(int pods, long seed) {
        return new SglangCacheAware(pods, () -> 0L, new SplittableRandom(seed));
    }

    @Test
    void aMissGoesToTheLeastLoadedByLoadThenRequestsProcessedThenIndex() {
        SglangCacheAware p = policy(3, 1);
        Placement first = p.place(text(repeat('a', 100)));
        assertThat(first.pod()).isZero();                     // all (0, 0): the lowest index
        first.finished(1);
        // loads [0, 0, 0], processed [1, 0, 0]: pod 1, not the lowest index.
        assertThat(p.place(text(repeat('b', 100))).pod()).isEqualTo(1);
        // loads [0, 1, 0], processed [1, 1, 0]: pod 2 by load.
        assertThat(p.place(text(repeat('c', 100))).pod()).isEqualTo(2);
        assertThat(p.processed(0)).isEqualTo(1);
        assertThat(p.processed(2)).isEqualTo(1);
    }

    @Test
    void aHitGoesToTheLeastLoadedTenantOfTheDeepestNode() {
        SglangCacheAware p = policy(3, 1);
        String doc = SYSTEM + repeat('d', 20);
        assertThat(p.place(text(doc)).pod()).isZero();        // cold: pod 0, load 1
        p.tree().insert(doc, 2);                              // pod 2 holds it too, idle
        assertThat(p.place(text(repeat('z', 100))).pod()).isEqualTo(1); // a miss: (0, 0, 1) before (0, 0, 2)
        // loads [1, 1, 0]: 80 of 100 characters matched; tenants {0, 2}; the less loaded is 2.
        assertThat(p.place(text(SYSTEM + repeat('e', 20))).pod()).isEqualTo(2);
        // loads [1, 1, 1]: pod 2 is no tenant of the matched node, so it never gets the hit.
        Set<Integer> seen = new HashSet<>();
        for (long seed = 0; seed < 32; seed++) {
            SglangCacheAware q = policy(3, seed);
            q.tree().insert(doc, 0);
            q.tree().insert(doc, 1);
            seen.add(q.choose(SYSTEM + repeat('f', 20)));
        }
        assertThat(seen).containsExactlyInAnyOrder(0, 1);
    }

    @Test
    void tiedTenantsAreDrawnUniformlyAndOnlyAmongTheTied() {
        Set<Integer> seen = new HashSet<>();
        for (long seed = 0; seed < 48; seed++) {
            SglangCacheAware p = policy(4, seed);
            for (int t = 0; t < 3; t++) {
                p.tree().insert(SYSTEM, t);                   // tenants 0, 1, 2 hold it; 3 does not
            }
            seen.add(p.choose(SYSTEM + "q"));
        }
        assertThat(seen).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void theMatchRateMustExceedTheThreshold() {
        SglangCacheAware p = policy(2, 1);
        p.place(text(repeat('s', 30) + repeat('a', 70)));    // pod 0, load 1
        // 30 of 100 characters match: 0.3 is not more than 0.3, a miss: the least loaded, pod 1.
        assertThat(p.place(text(repeat('s', 30) + repeat('c', 70))).pod()).isEqualTo(1);
        // loads [1, 1], processed [1, 1]: 31 of 100 is a hit; the deepest node (the 'a' edge) is pod 0's alone.
        assertThat(p.place(text(repeat('s', 30) + "a" + repeat('d', 69))).pod()).isZero();
    }

    @Test
    void theSpillNeedsTheAbsoluteMarginOverTheMean() {
        // Two pods, holder 0 at L, pod 1 at 0: mean L/2; L > 1.5 · L/2 always, L > L/2 + 64 iff L > 128.
        assertThat(choiceWithLoads(128, 0)).isZero();
        assertThat(choiceWithLoads(129, 0)).isEqualTo(1);
    }

    @Test
    void theSpillNeedsTheRelativeMarginOverTheMean() {
        // Holder 0 at h, pod 1 at 100: mean (h + 100)/2. Absolute: h > mean + 64 iff h > 228. Relative:
        // h > 1.5 · mean iff h > 300. At 300 only the absolute margin holds: no spill; at 301 both do.
        assertThat(choiceWithLoads(300, 100)).isZero();
        assertThat(choiceWithLoads(301, 100)).isEqualTo(1);
    }

    @Test
    void aSpilledRequestIsInsertedForItsTargetWhichThenHoldsThePrefix() {
        SglangCacheAware p = policy(2, 1);
        p.tree().insert(SYSTEM, 0);
        p.loads()[0] = 129;
        assertThat(p.choose(SYSTEM + "q")).isEqualTo(1);
        assertThat(p.tree().match(SYSTEM).tenants()).isEqualTo(0b11L);
        assertThat(p.processed(1)).isEqualTo(1);
    }

    @Test
    void noFleetGate_aMatchStaysHomeWhateverTheSpreadWhileTheSpillGateIsClosed() {
        // [100, 0, 100, 100]: max − min = 100 > 64 and max > 1.5 · min, which the 2025 router's fleet gate sent to
        // the least loaded; today the holder (100 ≤ mean 75 + 64) keeps it.
        SglangCacheAware p = policy(4, 1);
        p.tree().insert(SYSTEM, 0);
        int[] load = p.loads();
        load[0] = 100;
        load[2] = 100;
        load[3] = 100;
        assertThat(p.choose(SYSTEM + "q")).isZero();
    }

    @Test
    void theLoadOfARequestIsReleasedExactlyOnce() {
        SglangCacheAware p = policy(2, 1);
        Placement a = p.place(text(SYSTEM + 0));
        p.place(text(SYSTEM + 1));
        int pod = a.pod();
        int before = p.load(pod);
        a.finished(1);
        a.finished(2);
        assertThat(p.load(pod)).isEqualTo(before - 1);
    }

    private static int choiceWithLoads(int holder, int other) {
        SglangCacheAware p = policy(2, 1);
        p.tree().insert(SYSTEM, 0);
        p.loads()[0] = holder;
        p.loads()[1] = other;
        return p.choose(SYSTEM + "q");
    }
}
