package dev.homing.core.precise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.Pools;
import dev.homing.protocol.kvevents.AllBlocksCleared;
import dev.homing.protocol.kvevents.BlockRemoved;
import dev.homing.protocol.kvevents.BlockStored;
import dev.homing.protocol.kvevents.EventBlockHash;
import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link PreciseIndex} does with the same events: the in-memory one ({@link InMemoryPreciseIndexTest}) and
 * the router's Redis-backed one run these same scenarios.
 */
public abstract class PreciseIndexContract {

    public static final int BS = 4;
    private final EndpointPool pool = Pools.of(3);
    protected final List<EndpointState> all = Pools.states(pool);
    protected PreciseIndex index;

    /** A fresh, empty index; each call a separate one (they may share a backing store only if a test says so). */
    protected abstract PreciseIndex newIndex(long maxEntries, int blockSize, long seed, Map<String, Double> tierWeights);

    @BeforeEach
    void createIndex() {
        index = newIndex(1000, BS, 7, PreciseIndex.DEFAULT_TIER_WEIGHTS);
    }

    public static int[] tokens(int n, int base) {
        int[] t = new int[n];
        for (int i = 0; i < n; i++) {
            t[i] = base + i;
        }
        return t;
    }

    /** A BlockStored for blocks [from, to) of {@code tokens}, engine hashes engine+i, parent engine+from-1. */
    public static BlockStored stored(int[] tokens, int from, int to, long engine, String medium, String lora, String salt) {
        List<EventBlockHash> hashes = new ArrayList<>();
        List<List<Object>> extra = new ArrayList<>();
        for (int i = from; i < to; i++) {
            hashes.add(EventBlockHash.ofUint64(engine + i));
            List<Object> keys = new ArrayList<>();
            if (lora != null) {
                keys.add(lora);
            }
            if (salt != null && i == 0) {
                keys.add(salt);
            }
            extra.add(keys.isEmpty() ? null : keys);
        }
        return new BlockStored(hashes, from == 0 ? null : EventBlockHash.ofUint64(engine + from - 1),
                Arrays.copyOfRange(tokens, from * BS, to * BS), BS, null, medium, lora, extra, 0, "full_attention", null);
    }

    public static BlockStored stored(int[] tokens, int from, int to, long engine) {
        return stored(tokens, from, to, engine, "GPU", null, null);
    }

    protected int[] matched(int[] tokens, String model, String salt, long now) {
        long[] keys = BlockKeys.of(index.root(model, salt), tokens, BS, 100);
        return index.match(keys, all, all.size(), now).matchedBlocks();
    }

    @Test
    public void chainsFollowParentsAcrossEventsAndMatchTheRoutersOwnKeys() {
        int[] prompt = tokens(22, 100); // 5 full blocks and 2 tokens
        assertThat(index.apply("pod-1", List.of(stored(prompt, 0, 2, 1000)))).isZero();
        assertThat(index.apply("pod-1", List.of(stored(prompt, 2, 5, 1000)))).isZero();
        index.apply("pod-2", List.<KvCacheEvent>of(stored(prompt, 0, 1, 5000)));
        assertThat(matched(prompt, "m", null, 0)).containsExactly(0, 5, 1);
        assertThat(index.stats().storedBlocks()).isEqualTo(6);
        // another prompt sharing the first two blocks
        int[] other = prompt.clone();
        other[9] = -1;
        assertThat(matched(other, "m", null, 0)).containsExactly(0, 2, 1);
    }

    @Test
    public void removalAndClearForgetBlocks() {
        int[] prompt = tokens(16, 0);
        index.apply("pod-0", List.of(stored(prompt, 0, 4, 10)));
        index.apply("pod-0", List.of(BlockRemoved.gpu(EventBlockHash.ofUint64(12))));
        assertThat(matched(prompt, "m", null, 0)).containsExactly(2, 0, 0);
        index.apply("pod-0", List.of(AllBlocksCleared.INSTANCE));
        assertThat(matched(prompt, "m", null, 0)).containsExactly(0, 0, 0);
        assertThat(index.size()).isZero();
        assertThat(index.stats().clears()).isEqualTo(1);
    }

    @Test
    public void anUnknownParentCannotBeKeyedAndIsCounted() {
        int[] prompt = tokens(12, 0);
        assertThat(index.apply("pod-0", List.of(stored(prompt, 1, 3, 10)))).isEqualTo(1);
        assertThat(index.stats().unresolvedEvents()).isEqualTo(1);
        assertThat(matched(prompt, "m", null, 0)).containsExactly(0, 0, 0);
    }

    @Test
    public void anotherBlockSizeIsSkipped() {
        BlockStored wrong = new BlockStored(List.of(EventBlockHash.ofUint64(1)), null, tokens(16, 0), 16, null, "GPU",
                null, null, null, null, null);
        assertThat(index.apply("pod-0", List.of(wrong))).isEqualTo(1);
        assertThat(index.size()).isZero();
    }

    @Test
    public void tiersAreWeightedAndABlockCountsItsBestTier() {
        int[] prompt = tokens(8, 0);
        index.apply("pod-0", List.of(stored(prompt, 0, 2, 10)));
        BlockStored toCpu = new BlockStored(List.of(EventBlockHash.ofUint64(10), EventBlockHash.ofUint64(11)), null,
                new int[0], BS, null, "CPU", null, null, null, null, null);
        index.apply("pod-0", List.of(toCpu));
        long[] keys = BlockKeys.of(index.root("m", null), prompt, BS, 10);
        assertThat(index.match(keys, all, 3, 0).weightedBlocks()[0]).isEqualTo(2.0);
        // the GPU copy of block 1 is evicted; the CPU copy remains and weighs 0.8
        index.apply("pod-0", List.of(new BlockRemoved(List.of(EventBlockHash.ofUint64(11)), "GPU", null)));
        PreciseIndex.Match m = index.match(keys, all, 3, 0);
        assertThat(m.matchedBlocks()[0]).isEqualTo(2);
        assertThat(m.weightedBlocks()[0]).isCloseTo(1.8, within(1e-12));
    }

    @Test
    public void adaptersAndSaltsSeparatePrefixes() {
        int[] prompt = tokens(8, 0);
        index.apply("pod-0", List.of(stored(prompt, 0, 2, 10, "GPU", "my-lora", null)));
        index.apply("pod-1", List.of(stored(prompt, 0, 2, 20, "GPU", null, "s1")));
        index.apply("pod-2", List.of(stored(prompt, 0, 2, 30)));
        assertThat(matched(prompt, "my-lora", null, 0)).containsExactly(2, 0, 0);
        assertThat(matched(prompt, "base", "s1", 0)).containsExactly(0, 2, 0);
        assertThat(matched(prompt, "base", null, 0)).containsExactly(0, 0, 2);
        assertThat(matched(prompt, "base", "s2", 0)).containsExactly(0, 0, 0);
    }

    @Test
    public void aRequestNamingNoModelMatchesTheBaseModelsBlocks() {
        int[] prompt = tokens(8, 0);
        index.apply("pod-0", List.of(stored(prompt, 0, 2, 10, "GPU", "my-lora", null)));
        index.apply("pod-1", List.of(stored(prompt, 0, 2, 20)));
        // a conversation may name no model: it is keyed as the base model, never as an adapter, and does not throw
        assertThat(matched(prompt, null, null, 0)).containsExactly(0, 2, 0);
        assertThat(index.root(null, "s1")).isEqualTo(index.root("base", "s1"));
    }

    @Test
    public void speculativeHoldingsExpireUnlessAnEventConfirmsThem() {
        int[] a = tokens(8, 0);
        int[] b = tokens(8, 500);
        index.holdSpeculatively("pod-1", BlockKeys.of(index.root("m", null), a, BS, 10), 1_000);
        index.holdSpeculatively("pod-2", BlockKeys.of(index.root("m", null), b, BS, 10), 1_000);
        assertThat(matched(a, "m", null, 500)).containsExactly(0, 2, 0);
        long[] keysA = BlockKeys.of(index.root("m", null), a, BS, 10);
        assertThat(index.match(keysA, all, 3, 500).weightedBlocks()[1]).as("a pick is held on the GPU tier")
                .isEqualTo(2.0);
        index.apply("pod-2", List.of(stored(b, 0, 2, 40))); // confirmed
        assertThat(matched(a, "m", null, 2_000)).containsExactly(0, 0, 0);
        assertThat(matched(b, "m", null, 2_000)).containsExactly(0, 0, 2);
        assertThat(index.size()).isEqualTo(2);
    }

    @Test
    public void aSettledHoldLastsAtMostUntilItsSettlementAndAConfirmedHoldingStays() {
        long s = 1_000_000_000L;
        int[] a = tokens(8, 0);
        int[] b = tokens(8, 500);
        long[] keysA = BlockKeys.of(index.root("m", null), a, BS, 10);
        long[] keysB = BlockKeys.of(index.root("m", null), b, BS, 10);
        index.holdSpeculatively("pod-1", keysA, 600 * s); // until its prefill, at most 10 minutes
        assertThat(matched(a, "m", null, 60 * s)).as("a minute in a queue").containsExactly(0, 2, 0);
        index.settleSpeculatively("pod-1", keysA, 62 * s); // prefilled at 60 s: 2 s more for its events
        index.settleSpeculatively("pod-1", keysA, 900 * s); // settling never lengthens a hold
        assertThat(matched(a, "m", null, 61 * s)).containsExactly(0, 2, 0);
        assertThat(matched(a, "m", null, 63 * s)).as("no event came").containsExactly(0, 0, 0);

        index.apply("pod-2", List.of(stored(b, 0, 2, 40)));
        index.holdSpeculatively("pod-2", keysB, 600 * s);
        index.settleSpeculatively("pod-2", keysB, 0); // a confirmed holding is the pod's, whatever picks do
        assertThat(matched(b, "m", null, 100 * s)).containsExactly(0, 0, 2);
        index.settleSpeculatively("pod-0", keysB, 0); // nothing held there: nothing to do
        assertThat(index.size("pod-0")).isZero();
    }

    @Test
    public void theBoundEvictsTheLeastRecentlyStored() {
        PreciseIndex small = newIndex(3, BS, 7, PreciseIndex.DEFAULT_TIER_WEIGHTS);
        int[] prompt = tokens(16, 0);
        small.apply("pod-0", List.of(stored(prompt, 0, 2, 10)));
        small.apply("pod-1", List.of(stored(prompt, 0, 2, 10)));
        assertThat(small.size()).isEqualTo(3);
        long[] keys = BlockKeys.of(small.root("m", null), prompt, BS, 10);
        // pod-0's tail (block 1) went first: its head still matches
        assertThat(small.match(keys, all, 3, 0).matchedBlocks()).containsExactly(1, 2, 0);
        small.removePod("pod-1");
        assertThat(small.size()).isEqualTo(1);
        assertThat(small.size("pod-0")).isEqualTo(1);
    }

    @Test
    public void aLookupSeesThePicksMadeBetweenItsStartAndItsFinish() {
        int[] prompt = tokens(12, 40);
        long[] keys = BlockKeys.of(index.root("m", null), prompt, BS, 10);
        PreciseIndex.Lookup early = index.lookup(keys, 0);
        index.holdSpeculatively("pod-1", keys, 1_000); // another decision, made while this one waited for the lock
        assertThat(early.match(all, 3, 0).matchedBlocks()).containsExactly(0, 3, 0);
        assertThat(index.lookup(keys, 0).match(all, 3, 0).matchedBlocks()).containsExactly(0, 3, 0);
    }

    @Test
    public void onlyCandidatesAreReportedAndARunNeedsItsFirstBlock() {
        int[] prompt = tokens(12, 0);
        index.apply("pod-0", List.of(stored(prompt, 0, 3, 10)));
        // pod-1 holds blocks 1 and 2 only (its first block was removed): no run from block 0
        index.apply("pod-1", List.of(stored(prompt, 0, 3, 20)));
        index.apply("pod-1", List.of(BlockRemoved.gpu(EventBlockHash.ofUint64(20))));
        long[] keys = BlockKeys.of(index.root("m", null), prompt, BS, 10);
        PreciseIndex.Match m = index.match(keys, List.of(all.get(1), all.get(2)), 3, 0);
        assertThat(m.matchedBlocks()).containsExactly(0, 0, 0);
        assertThat(m.totalBlocks()).isEqualTo(3);
        assertThat(index.match(keys, all, 3, 0).matchedBlocks()).containsExactly(3, 0, 0);
        assertThat(index.size("pod-1")).isEqualTo(2);
        assertThat(index.stats().removedBlocks()).isEqualTo(1);
    }

    @Test
    public void aRemovedPodIsForgottenAndItsEngineHashesNoLongerResolve() {
        int[] prompt = tokens(8, 0);
        index.apply("pod-0", List.of(stored(prompt, 0, 1, 10)));
        index.removePod("pod-0");
        assertThat(index.size()).isZero();
        // the parent's mapping went with the pod: its child cannot be keyed
        assertThat(index.apply("pod-0", List.of(stored(prompt, 1, 2, 10)))).isEqualTo(1);
        assertThat(matched(prompt, "m", null, 0)).containsExactly(0, 0, 0);
    }

    @Test
    public void clearingAPodLeavesTheOthers() {
        int[] prompt = tokens(8, 0);
        index.apply("pod-0", List.of(stored(prompt, 0, 2, 10)));
        index.apply("pod-2", List.of(stored(prompt, 0, 2, 30)));
        index.holdSpeculatively("pod-0", BlockKeys.of(index.root("m", null), tokens(8, 900), BS, 10), 1_000);
        index.clear("pod-0");
        assertThat(matched(prompt, "m", null, 0)).containsExactly(0, 0, 2);
        assertThat(index.size("pod-0")).isZero();
        assertThat(index.size()).isEqualTo(2);
        assertThat(index.stats().clears()).isZero(); // counts AllBlocksCleared events, not calls
    }
}
