package dev.homing.bench.policy;

import static dev.homing.bench.policy.Requests.tokens;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.protocol.kvevents.AllBlocksCleared;
import dev.homing.protocol.kvevents.BlockRemoved;
import dev.homing.protocol.kvevents.BlockStored;
import dev.homing.protocol.kvevents.EventBlockHash;
import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Block size 4 throughout, so a 12-token prompt is 3 blocks. */
class DynamoKvRouterTest {

    private static final int[] P = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    private static final int[] Q = {21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
    private static final int[] R = {41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52};

    private final DynamoKvRouter router = new DynamoKvRouter(2, 4, new SplittableRandom(1));

    /** A BlockStored of {@code tokens}' first {@code blocks} blocks, engine hashes {@code base, base+1, ...}. */
    private static List<KvCacheEvent> stored(int[] tokens, int blocks, long base) {
        List<EventBlockHash> hashes = new ArrayList<>();
        for (int i = 0; i < blocks; i++) {
            hashes.add(EventBlockHash.ofUint64(base + i));
        }
        List<List<Object>> extraKeys = new ArrayList<>();
        for (int i = 0; i < blocks; i++) {
            extraKeys.add(null);
        }
        return List.of(BlockStored.gpu(hashes, null, Arrays.copyOf(tokens, blocks * 4), 4, null, null, extraKeys));
    }

    @Test
    void theLogitIsPrefillBlocksPlusDecodeBlocksAndTheLeastWins() {
        router.kvEvents(0, stored(P, 2, 100));           // worker 0 holds P's first 2 blocks
        long[] keys = router.index().keys(P);
        int[] overlap = router.index().findMatches(keys);
        assertThat(overlap).containsExactly(2, 0);
        // w0: (12 − 2·4 + 0)/4 + (3 new + 0 active) = 4;  w1: 12/4 + 3 = 6.
        assertThat(router.logit(0, 12, keys, 2)).isEqualTo(4.0);
        assertThat(router.logit(1, 12, keys, 0)).isEqualTo(6.0);
        assertThat(router.place(tokens(P)).pod()).isZero();
    }

    @Test
    void requestsInFlightCountAsPrefillUntilTheirFirstTokenAndAsBlocksUntilTheyEnd() {
        router.kvEvents(0, stored(P, 2, 100));
        Placement p = router.place(tokens(P));           // w0: 4 prefill tokens, 3 active blocks
        long[] q = router.index().keys(Q);
        // w0: (12 + 4)/4 + 3 + 3 = 10;  w1: 12/4 + 3 = 6.
        assertThat(router.logit(0, 12, q, 0)).isEqualTo(10.0);
        Placement pq = router.place(tokens(Q));
        assertThat(pq.pod()).isEqualTo(1);                // w1: 12 prefill tokens, 3 active blocks

        p.firstToken(1);
        long[] r = router.index().keys(R);
        // w0: 12/4 + 3 + 3 = 9;  w1: (12 + 12)/4 + 3 + 3 = 12.
        assertThat(router.logit(0, 12, r, 0)).isEqualTo(9.0);
        assertThat(router.logit(1, 12, r, 0)).isEqualTo(12.0);
        assertThat(router.place(tokens(R)).pod()).isZero();

        pq.finished(2);
        assertThat(router.active(1).activeBlocks()).isZero();
        assertThat(router.active(1).activeTokens()).isZero();
    }

    @Test
    void blocksSharedWithARequestInFlightAreNotCountedTwice() {
        router.place(tokens(P));                          // cold: both 6, tree sizes 0 and 0, random
        int w = router.active(0).activeBlocks() > 0 ? 0 : 1;
        assertThat(router.active(w).newBlocks(router.index().keys(P))).isZero();
        int[] sameStart = {1, 2, 3, 4, 5, 6, 7, 8, 99, 98, 97, 96};
        assertThat(router.active(w).newBlocks(router.index().keys(sameStart))).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void tiesIgnoreTreeSizeAndAreDrawnAmongTheTiedOnly(long seed) {
        // ai-dynamo/dynamo 01690d4 selector.rs: equal logits are kept by reservoir sampling, no tree-size key.
        Set<Integer> chosen = new HashSet<>();
        SplittableRandom seeds = new SplittableRandom(seed);
        for (int i = 0; i < 24; i++) {
            DynamoKvRouter fresh = new DynamoKvRouter(3, 4, new SplittableRandom(seeds.nextLong()));
            fresh.kvEvents(0, stored(R, 3, 500));         // w0 holds three unrelated blocks, w1 none
            fresh.active(2).add("busy", fresh.index().keys(Q), 12); // w2 prefills Q
            // P is cold everywhere: w0 and w1 tie at 12/4 + 3 = 6 whatever their trees; w2 costs 24/4 + 3 + 3 = 12.
            assertThat(fresh.logit(2, 12, fresh.index().keys(P), 0)).isEqualTo(12.0);
            chosen.add(fresh.choose(12, fresh.index().keys(P), new int[3]));
        }
        assertThat(chosen).containsExactlyInAnyOrder(0, 1);
    }

    @Test
    void removedBlocksNoLongerCountAndUnknownParentsAreIgnored() {
        router.kvEvents(0, stored(P, 3, 100));
        assertThat(router.index().findMatches(router.index().keys(P))).containsExactly(3, 0);
        router.kvEvents(0, List.of(BlockRemoved.gpu(EventBlockHash.ofUint64(102))));
        assertThat(router.index().findMatches(router.index().keys(P))).containsExactly(2, 0);
        assertThat(router.index().treeSize(0)).isEqualTo(2);

        List<EventBlockHash> orphan = List.of(EventBlockHash.ofUint64(900));
        router.kvEvents(1, List.of(BlockStored.gpu(orphan, EventBlockHash.ofUint64(899), new int[] {9, 9, 9, 9}, 4,
                null, null, Arrays.asList((List<Object>) null))));
        assertThat(router.index().unresolved()).isEqualTo(1);
        assertThat(router.index().treeSize(1)).isZero();
    }

    @Test
    void aClearDropsEverythingTheWorkerHeld() {
        router.kvEvents(0, stored(P, 3, 100));
        router.kvEvents(1, stored(P, 2, 200));
        router.kvEvents(0, List.of(AllBlocksCleared.INSTANCE));
        assertThat(router.index().treeSize(0)).isZero();
        assertThat(router.index().findMatches(router.index().keys(P))).containsExactly(0, 2);
    }

    @Test
    void theWalkCountsEveryWorkerOnThePathAndStopsWhereNoWorkerHoldsTheNextBlock() {
        router.kvEvents(0, stored(P, 3, 100));
        router.kvEvents(1, stored(P, 1, 200));
        assertThat(router.index().findMatches(router.index().keys(P))).containsExactly(3, 1);
        int[] divergent = {1, 2, 3, 4, 0, 0, 0, 0, 9, 10, 11, 12};
        assertThat(router.index().findMatches(router.index().keys(divergent))).containsExactly(1, 1);
    }
}
