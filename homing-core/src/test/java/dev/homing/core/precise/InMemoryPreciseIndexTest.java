package dev.homing.core.precise;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InMemoryPreciseIndexTest extends PreciseIndexContract {

    @Override
    protected PreciseIndex newIndex(long maxEntries, int blockSize, long seed, Map<String, Double> tierWeights) {
        return new InMemoryPreciseIndex(maxEntries, blockSize, seed, tierWeights);
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
}
