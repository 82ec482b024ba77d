package dev.homing.core.precise;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.protocol.kvevents.AllBlocksCleared;
import dev.homing.protocol.kvevents.BlockRemoved;
import dev.homing.protocol.kvevents.BlockStored;
import dev.homing.protocol.kvevents.EventBlockHash;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InMemoryPreciseIndexTest extends PreciseIndexContract {

    @Override
    protected PreciseIndex newIndex(long maxEntries, int blockSize, long seed, Map<String, Double> tierWeights) {
        return new InMemoryPreciseIndex(maxEntries, blockSize, seed, tierWeights);
    }

    @Test
    void aHoldCutShortIsGoneAtItsNewExpiryNotBehindOlderLongerHolds() {
        InMemoryPreciseIndex in = (InMemoryPreciseIndex) index;
        long[] keys = BlockKeys.of(in.root("m", null), tokens(8, 3), BS, 10);
        long second = 1_000_000_000L;
        in.holdSpeculatively("pod-0", keys, 600 * second); // a pick that runs its whole speculative age
        in.holdSpeculatively("pod-1", keys, 600 * second);
        in.settleSpeculatively("pod-1", keys, 10 * second); // pod-1 could not be reached: its hold cut short
        in.match(keys, all, 3, 20 * second); // expiries are taken as lookups pass them
        assertThat(in.size("pod-1")).as("pod-1's holding expired at 10 s").isZero();
        assertThat(in.size("pod-0")).isEqualTo(keys.length);
    }

    @Test
    void engineHashesResolveToTheKeysTheirTokensChainTo() {
        InMemoryPreciseIndex in = (InMemoryPreciseIndex) index;
        int[] prompt = tokens(8, 3);
        in.apply("pod-0", List.of(stored(prompt, 0, 2, 10)));
        long[] keys = BlockKeys.of(in.root("m", null), prompt, BS, 10);
        assertThat(in.keyOf("pod-0", 11)).hasValue(keys[1]);
        assertThat(in.keyOf("pod-0", 12)).isEmpty();
        assertThat(in.keyOf("pod-1", 10)).isEmpty();
    }

    @Test
    void aLearnedParentLetsAPodsNextBlocksChainWithoutHoldingIt() {
        InMemoryPreciseIndex in = (InMemoryPreciseIndex) index;
        int[] prompt = tokens(8, 3);
        long[] keys = BlockKeys.of(in.root("m", null), prompt, BS, 10);
        in.learn("pod-2", 10, keys[0]);
        assertThat(in.apply("pod-2", List.of(stored(prompt, 1, 2, 10)))).isZero();
        assertThat(in.size("pod-2")).isEqualTo(1);
        // block 0 is not held, so the run from block 0 is empty even though block 1 is
        assertThat(in.match(keys, all, 3, 0).matchedBlocks()).containsExactly(0, 0, 0);
        assertThat(in.keyOf("pod-2", 11)).hasValue(keys[1]);
    }

    @Test
    void engineHashMappingsAreBoundedLikeTheHoldings() {
        InMemoryPreciseIndex small = new InMemoryPreciseIndex(4, BS, 7, PreciseIndex.DEFAULT_TIER_WEIGHTS);
        for (long h = 1; h <= 10; h++) {
            small.learn("pod-0", h, 100 + h); // mappings no BlockRemoved will ever take back
            assertThat(small.mappedHashes("pod-0")).isLessThanOrEqualTo(4);
        }
        assertThat(small.keyOf("pod-0", 10)).hasValue(110); // the newest mapping is kept
    }

    /** Tells what it is told, in order. */
    private static final class RecordedChanges implements IndexChanges {
        final List<String> told = new ArrayList<>();

        @Override
        public void held(String medium, long key) {
            told.add("held " + medium + " " + key);
        }

        @Override
        public void mapped(long engine, long key) {
            told.add("mapped " + engine + " " + key);
        }

        @Override
        public void removed(String medium, long engine) {
            told.add("removed " + medium + " " + engine);
        }

        @Override
        public void adapter(String loraName) {
            told.add("adapter " + loraName);
        }

        @Override
        public void cleared() {
            told.add("cleared");
        }
    }

    /** The order the router's Redis index replays a batch in: its writes must land as the local index keyed them. */
    @Test
    void aBatchTellsItsChangesInEventOrderMappingsBeforeHoldingsAndAChainTailFirst() {
        InMemoryPreciseIndex in = (InMemoryPreciseIndex) index;
        int[] prompt = tokens(12, 0);
        BlockStored toCpu = new BlockStored(List.of(EventBlockHash.ofUint64(10), EventBlockHash.ofUint64(11)), null,
                new int[0], BS, null, "CPU", null, null, null, null, null);
        BlockRemoved removed = new BlockRemoved(List.of(EventBlockHash.ofUint64(12), EventBlockHash.ofUint64(99)),
                "GPU", null);
        RecordedChanges changes = new RecordedChanges();
        in.apply("pod-0", List.of(stored(prompt, 0, 3, 10, "GPU", "adapter-a", null), toCpu, removed,
                AllBlocksCleared.INSTANCE, stored(prompt, 0, 1, 20)), changes);

        long[] a = BlockKeys.of(in.root("adapter-a", null), prompt, BS, 3);
        long[] m = BlockKeys.of(in.root("m", null), prompt, BS, 1);
        assertThat(changes.told).containsExactly(
                "adapter adapter-a",
                "mapped 10 " + a[0], "mapped 11 " + a[1], "mapped 12 " + a[2],
                "held GPU " + a[2], "held GPU " + a[1], "held GPU " + a[0],
                "held CPU " + a[0], "held CPU " + a[1],
                "removed GPU 12", "removed GPU 99", // 99 was never stored here: a shared index may know it
                "cleared",
                "mapped 20 " + m[0], "held GPU " + m[0]);
    }
}
