package dev.homing.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.homing.bench.result.CacheBounds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Belady and LRU over one pooled cache, on traces small enough to work out by hand. Block size 2 throughout: a
 * request {@code blocks(A)} is A's two tokens plus one token of its own, so it has one full block, may hit it (cap
 * (3 − 1) / 2 = 1), and a hit is worth 2 of its 3 tokens.
 */
class PooledBoundsTest {

    private static final int BS = 2;

    /** One request per argument, each naming its full blocks by a letter, then one token of its own. */
    private static Workload trace(String... requests) {
        List<WorkloadRequest> out = new ArrayList<>();
        for (String r : requests) {
            out.add(request(r));
        }
        return new Workload("hand-made", out, List.of(), 1, Map.of());
    }

    private static WorkloadRequest request(String blocks) {
        int[] tokens = new int[blocks.length() * BS + 1];
        for (int i = 0; i < blocks.length(); i++) {
            tokens[BS * i] = blocks.charAt(i) * 2;
            tokens[BS * i + 1] = blocks.charAt(i) * 2 + 1;
        }
        tokens[tokens.length - 1] = 7; // the partial block: never cached
        return new WorkloadRequest("r", -1, 0, "m", Prompt.text("unused", tokens), 1, true, -1, -1, 0);
    }

    private static Workload subset(Workload w, int pod, int[] placement) {
        List<WorkloadRequest> mine = new ArrayList<>();
        for (int i = 0; i < placement.length; i++) {
            if (placement[i] == pod) {
                mine.add(w.requests().get(i));
            }
        }
        return new Workload("pod-" + pod, mine, List.of(), 1, Map.of());
    }

    private static long tokens(Workload w) {
        return w.requests().stream().mapToLong(r -> r.prompt().tokens().length).sum();
    }

    /** Hit tokens of a fleet: each pod an LRU cache of {@code perPod} blocks, requests placed by {@code placement}. */
    private static double partitioned(Workload w, int[] placement, int pods, long perPod) {
        double hit = 0;
        for (int p = 0; p < pods; p++) {
            Workload mine = subset(w, p, placement);
            hit += LruBound.of(mine, BS, perPod) * tokens(mine);
        }
        return hit / tokens(w);
    }

    @Test
    void twoPartitionedCachesBeatPooledLruButNotBelady() {
        // A B C cycled three times: 9 requests of 3 tokens = 27 tokens.
        Workload w = trace("A", "B", "C", "A", "B", "C", "A", "B", "C");
        // Pooled LRU of 2 blocks: every access finds its block just evicted (A B C A: A went when C came) -> 0.
        assertThat(LruBound.of(w, BS, 2)).isZero();
        // Two pods of 1 block; A always on pod 0, B and C on pod 1: pod 0 hits A's 2nd and 3rd visit (2 x 2 tokens),
        // pod 1 alternates B C and never hits.
        int[] placement = {0, 1, 1, 0, 1, 1, 0, 1, 1};
        assertThat(partitioned(w, placement, 2, 1)).isCloseTo(4.0 / 27, within(1e-12));
        // Belady with 2 blocks: keeps A and B (C's next use is always the farthest, so it is never kept): A and B hit on
        // their 2nd and 3rd visits -> 4 hits x 2 tokens.
        assertThat(BeladyBound.of(w, BS, 2)).isCloseTo(8.0 / 27, within(1e-12));
        // the infinite cache hits every visit after the first: 6 x 2 tokens
        assertThat(HitRateBound.of(w, BS)).isCloseTo(12.0 / 27, within(1e-12));
        CacheBounds both = PooledBounds.of(w, BS, 2);
        assertThat(both).isEqualTo(new CacheBounds(2, 8.0 / 27, 0.0));
    }

    @Test
    void lruEvictsTheLeastRecentlyUsedAndBeladyTheFarthestNextUse() {
        // A B A C B A, capacity 2.
        Workload w = trace("A", "B", "A", "C", "B", "A");
        // LRU: A m, B m, A h, C m (evicts B), B m (evicts A), A m (evicts C) -> 1 hit.
        assertThat(LruBound.of(w, BS, 2)).isCloseTo(2.0 / 18, within(1e-12));
        // Belady: A m, B m, A h, C: resident A (next 5), B (next 4), C never again -> C not kept; B h, A h -> 3 hits.
        assertThat(BeladyBound.of(w, BS, 2)).isCloseTo(6.0 / 18, within(1e-12));
        // one block: LRU hits nothing (never the same twice in a row); Belady keeps A from 0 to 2, then B (next 4)
        // over A? A's next (5) is farther, so at 1 B is declined, A hits at 2; at 3 C declined (never again); 4 B
        // declined (never again vs A at 5); A hits at 5 -> 2 hits.
        assertThat(LruBound.of(w, BS, 1)).isZero();
        assertThat(BeladyBound.of(w, BS, 1)).isCloseTo(4.0 / 18, within(1e-12));
    }

    @Test
    void aChildCountsOnlyBehindItsParent() {
        // AB then XB: B's tokens again, but behind another parent: its chained id differs, no hit. Then AB again with
        // room for everything: A and B hit (cap (5-1)/2 = 2 blocks = 4 tokens).
        Workload w = trace("AB", "XB", "AB");
        assertThat(BeladyBound.of(w, BS, 100)).isCloseTo(4.0 / 15, within(1e-12));
        assertThat(LruBound.of(w, BS, 100)).isCloseTo(4.0 / 15, within(1e-12));
        // LRU of 2 blocks: XB uses its B' (evicting B) then X (evicting A): the last AB finds neither. With 3, XB
        // evicts only B (AB used A last), so the last AB hits A; its B is gone and the run stops there: 2 tokens.
        assertThat(LruBound.of(w, BS, 2)).isZero();
        assertThat(LruBound.of(w, BS, 3)).isCloseTo(2.0 / 15, within(1e-12));
        // Belady with 2 keeps A and B (needed again at request 2) and declines XB's blocks (never again): 4 tokens.
        assertThat(BeladyBound.of(w, BS, 2)).isCloseTo(4.0 / 15, within(1e-12));
        // With 1 block it keeps A (the parent: its key is nearer than B's), so A hits and B does not: 2 tokens.
        assertThat(BeladyBound.of(w, BS, 1)).isCloseTo(2.0 / 15, within(1e-12));
    }

    @Test
    void aResidentChildWithoutItsParentServesNothing() {
        // Neither replacement ever leaves a child without its parent (that is what makes Belady's block hits prefix
        // hits), so the rule is checked on the lookup itself: ABC with only B and C present hits nothing, with A and
        // C present hits A only.
        BlockTrace t = BlockTrace.of(trace("ABC", "ABC"), BS);
        int a = t.ids[t.start[1]];
        int b = t.ids[t.start[1] + 1];
        int c = t.ids[t.start[1] + 2];
        assertThat(t.hitBlocks(1, id -> id == b || id == c)).isZero();
        assertThat(t.hitBlocks(1, id -> id == a || id == c)).isEqualTo(1);
        assertThat(t.hitBlocks(1, id -> true)).isEqualTo(3);
        // through the caches: AB (5 tokens), C (3), AB (5). LRU of 2 keeps A (used last of AB) and evicts B for C:
        // AB hits A only, 2 tokens. LRU of 1 holds only A after AB, then C: the parent is gone and B with it, 0.
        // Belady of 2 declines C (never used again) and hits both, 4 tokens.
        Workload w = trace("AB", "C", "AB");
        assertThat(LruBound.of(w, BS, 2)).isCloseTo(2.0 / 13, within(1e-12));
        assertThat(LruBound.of(w, BS, 1)).isZero();
        assertThat(BeladyBound.of(w, BS, 2)).isCloseTo(4.0 / 13, within(1e-12));
    }

    @Test
    void theLastTokenIsAlwaysComputed() {
        // a prompt of exactly two full blocks may hit one of them only: (4 − 1) / 2 = 1 block
        int[] four = {10, 11, 12, 13};
        Workload w = new Workload("t", List.of(
                new WorkloadRequest("a", -1, 0, "m", Prompt.text("u", four), 1, true, -1, -1, 0),
                new WorkloadRequest("b", -1, 0, "m", Prompt.text("u", four), 1, true, -1, -1, 0)), List.of(), 1,
                Map.of());
        assertThat(BeladyBound.of(w, BS, 10)).isCloseTo(2.0 / 8, within(1e-12));
        assertThat(LruBound.of(w, BS, 10)).isCloseTo(2.0 / 8, within(1e-12));
        // the request's two blocks are used (and kept) though only one can hit: capacity 1 keeps the first
        assertThat(BeladyBound.of(w, BS, 1)).isCloseTo(2.0 / 8, within(1e-12));
        assertThat(LruBound.of(w, BS, 1)).isCloseTo(2.0 / 8, within(1e-12));
    }

    @Test
    void differentModelsNeverShare() {
        int[] t = {1, 2, 3};
        Workload w = new Workload("t", List.of(
                new WorkloadRequest("a", -1, 0, "m1", Prompt.text("u", t), 1, true, -1, -1, 0),
                new WorkloadRequest("b", -1, 0, "m2", Prompt.text("u", t), 1, true, -1, -1, 0)), List.of(), 1,
                Map.of());
        assertThat(BeladyBound.of(w, BS, 10)).isZero();
    }

    @Test
    void orderedBetweenLruAndTheInfiniteCacheAndAbovePartitionedFleets() {
        Workload w = Workloads.create("shared-prefix", Map.of("num_groups", "12", "num_prompts_per_group", "6",
                "system_prompt_len", "40:30:4:120", "question_len", "6:4:1:20", "output_len", "1",
                "qps", "100x1"), 3);
        double infinite = HitRateBound.of(w, BS);
        assertThat(infinite).isGreaterThan(0.3);
        long distinct = BlockTrace.of(w, BS).distinct;
        // room for every block: all three agree
        assertThat(BeladyBound.of(w, BS, distinct)).isCloseTo(infinite, within(1e-12));
        assertThat(LruBound.of(w, BS, distinct)).isCloseTo(infinite, within(1e-12));
        assertThat(BeladyBound.of(w, BS, 0)).isZero();
        SplittableRandom rng = new SplittableRandom(11);
        for (long capacity : new long[] {20, 60, 150}) {
            double belady = BeladyBound.of(w, BS, capacity);
            double lru = LruBound.of(w, BS, capacity);
            assertThat(belady).as("capacity %d", capacity).isLessThanOrEqualTo(infinite).isGreaterThanOrEqualTo(lru);
            assertThat(belady).as("capacity %d: eviction matters", capacity).isLessThan(infinite);
            // any placement on 2 or 4 pods of the same total capacity (each an LRU cache, as vLLM's) stays below
            for (int pods : new int[] {2, 4}) {
                for (int trial = 0; trial < 5; trial++) {
                    int[] placement = new int[w.requests().size()];
                    for (int i = 0; i < placement.length; i++) {
                        // by group most of the time, as a cache-aware router would, else anywhere
                        placement[i] = rng.nextInt(4) == 0 ? rng.nextInt(pods) : w.requests().get(i).group() % pods;
                    }
                    assertThat(partitioned(w, placement, pods, capacity / pods)).as("capacity %d, %d pods", capacity,
                            pods).isLessThanOrEqualTo(belady + 1e-12);
                }
            }
        }
    }

    @Test
    void refusesANegativeCapacity() {
        assertThatThrownBy(() -> BeladyBound.of(trace("A"), BS, -1)).hasMessageContaining("capacity");
        assertThatThrownBy(() -> LruBound.of(trace("A"), BS, -1)).hasMessageContaining("capacity");
    }
}
