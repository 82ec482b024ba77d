package dev.homing.core.precise;

import static dev.homing.core.precise.PreciseIndexContract.BS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The columnar index against the object-per-holding one it replaced ({@link ReferencePreciseIndex}): the same random
 * mix of events, speculative holds, clears and lookups, over prompts that share prefixes (so keys get summaries and
 * lose them), on enough pods to need several words of bitset, with the bound evicting, must give the same lookups
 * (weights to rounding: a block on two tiers adds its best weight once where the old index added a difference), sizes,
 * counters and engine-hash mappings.
 */
class InMemoryPreciseIndexModelTest {

    private static final int SEQUENCES = 12;
    private static final int BLOCKS = 10;

    @ParameterizedTest(name = "seed {0}, {1} pods, bound {2}, weights {3}")
    @CsvSource({
        "1, 3, 100000, default",
        "2, 8, 150, default",
        "3, 70, 100000, default",
        "4, 70, 400, default",
        "5, 140, 100000, custom",
        "6, 140, 700, custom",
        "7, 20, 60, custom",
        "8, 5, 100000, custom"})
    void behavesLikeTheObjectPerHoldingIndex(long seed, int podCount, long bound, String weights) {
        Map<String, Double> tierWeights = weights.equals("default") ? PreciseIndex.DEFAULT_TIER_WEIGHTS
                // the unknown tier (weight 1.0) is the heaviest here, and GPU not the heaviest known one
                : Map.of("gpu", 0.5, "cpu", 0.9, "disk", 0.25);
        InMemoryPreciseIndex index = new InMemoryPreciseIndex(bound, BS, 7, tierWeights);
        ReferencePreciseIndex reference = new ReferencePreciseIndex(bound, BS, 7, tierWeights);
        List<EndpointState> all = Pools.states(Pools.of(podCount));
        SplittableRandom r = new SplittableRandom(seed);

        // Sequences share prefixes: sequence s's block b is the block of sequence (s % 3) while b < s / 2.
        int[][] tokens = new int[SEQUENCES][BLOCKS * BS];
        for (int s = 0; s < SEQUENCES; s++) {
            for (int t = 0; t < BLOCKS * BS; t++) {
                tokens[s][t] = t / BS < s / 2 && s >= 3 ? tokens[s % 3][t] : 1000 * s + t;
            }
        }
        String[] media = {"GPU", "CPU", null, "DISK", "gpu"};
        long now = 0;
        for (int op = 0; op < 6_000; op++) {
            String pod = "pod-" + r.nextInt(podCount);
            int podNo = Integer.parseInt(pod.substring(4));
            int s = r.nextInt(SEQUENCES);
            int what = r.nextInt(100);
            if (what < 35) {
                // a stored run of blocks [from, to), chained to its parent
                int from = r.nextInt(4) == 0 ? r.nextInt(BLOCKS) : 0;
                int to = Math.min(BLOCKS, from + 1 + r.nextInt(BLOCKS));
                String medium = media[r.nextInt(8) < 5 ? 0 : r.nextInt(media.length)];
                apply(index, reference, pod, stored(tokens[s], from, to, engine(podNo, s), medium));
            } else if (what < 42) {
                // copies to another tier: no tokens, engine hashes the pod may or may not know
                List<EventBlockHash> hashes = new ArrayList<>();
                for (int b = r.nextInt(BLOCKS), n = 1 + r.nextInt(4); n > 0 && b < BLOCKS; b++, n--) {
                    hashes.add(EventBlockHash.ofUint64(engine(podNo, s) + b));
                }
                apply(index, reference, pod, new BlockStored(hashes, null, new int[0], BS, null,
                        media[r.nextInt(media.length)], null, null, null, null, null));
            } else if (what < 55) {
                List<EventBlockHash> hashes = new ArrayList<>();
                for (int b = r.nextInt(BLOCKS), n = 1 + r.nextInt(5); n > 0 && b < BLOCKS; b++, n--) {
                    hashes.add(EventBlockHash.ofUint64(engine(podNo, s) + b));
                }
                apply(index, reference, pod, new BlockRemoved(hashes, media[r.nextInt(media.length)], null));
            } else if (what < 64) {
                long[] keys = BlockKeys.of(index.root("m", null), tokens[s], BS, 1 + r.nextInt(BLOCKS));
                long until = now + 1 + r.nextInt(r.nextInt(10) == 0 ? 5 : 200); // often out of order
                index.holdSpeculatively(pod, keys, until);
                reference.holdSpeculatively(pod, keys, until);
            } else if (what < 67) {
                // a pick's prefill done (a little more time) or failed (now): often before holds made later expire
                long[] keys = BlockKeys.of(index.root("m", null), tokens[s], BS, 1 + r.nextInt(BLOCKS));
                long until = r.nextBoolean() ? now : now + 1 + r.nextInt(20);
                index.settleSpeculatively(pod, keys, until);
                reference.settleSpeculatively(pod, keys, until);
            } else if (what < 68) {
                apply(index, reference, pod, AllBlocksCleared.INSTANCE);
            } else if (what < 69) {
                index.clear(pod);
                reference.clear(pod);
            } else if (what < 70) {
                index.removePod(pod);
                reference.removePod(pod);
            } else if (what < 72) {
                long engine = engine(podNo, s) + r.nextInt(BLOCKS);
                long key = BlockKeys.of(index.root("m", null), tokens[s], BS, BLOCKS)[r.nextInt(BLOCKS)];
                index.learn(pod, engine, key);
                reference.learn(pod, engine, key);
                assertThat(index.keyOf(pod, engine)).isEqualTo(reference.keyOf(pod, engine));
            } else if (what < 80) {
                now += r.nextInt(60);
            } else {
                long[] keys = BlockKeys.of(index.root("m", null), tokens[s], BS, BLOCKS);
                List<EndpointState> candidates = r.nextInt(4) == 0 ? all.subList(0, 1 + r.nextInt(podCount)) : all;
                PreciseIndex.Match got = index.match(keys, candidates, podCount, now);
                PreciseIndex.Match want = reference.match(keys, candidates, podCount, now);
                assertThat(got.matchedBlocks()).as("op %d", op).containsExactly(want.matchedBlocks());
                assertThat(got.totalBlocks()).isEqualTo(want.totalBlocks());
                for (int p = 0; p < podCount; p++) {
                    assertThat(got.weightedBlocks()[p]).as("op %d pod %d", op, p)
                            .isCloseTo(want.weightedBlocks()[p], within(1e-9));
                }
                assertThat(index.size()).as("op %d", op).isEqualTo(reference.size());
                assertThat(index.size(pod)).isEqualTo(reference.size(pod));
                long engine = engine(podNo, s) + r.nextInt(BLOCKS);
                assertThat(index.keyOf(pod, engine)).isEqualTo(reference.keyOf(pod, engine));
            }
        }
        assertThat(index.size()).isEqualTo(reference.size());
        assertThat(index.size()).isPositive();
        assertThat(index.stats()).isEqualTo(reference.stats());
        for (int p = 0; p < podCount; p++) {
            assertThat(index.size("pod-" + p)).isEqualTo(reference.size("pod-" + p));
        }
    }

    /** Engine hashes of a pod's copy of a sequence: its own, as a pod's engine hashes are. */
    private static long engine(int pod, int sequence) {
        return (pod + 1) * 1_000_000L + sequence * 1_000L;
    }

    private static BlockStored stored(int[] tokens, int from, int to, long engine, String medium) {
        List<EventBlockHash> hashes = new ArrayList<>();
        for (int i = from; i < to; i++) {
            hashes.add(EventBlockHash.ofUint64(engine + i));
        }
        return new BlockStored(hashes, from == 0 ? null : EventBlockHash.ofUint64(engine + from - 1),
                Arrays.copyOfRange(tokens, from * BS, to * BS), BS, null, medium, null, null, 0, "full_attention", null);
    }

    private static void apply(PreciseIndex a, PreciseIndex b, String pod, KvCacheEvent event) {
        assertThat(a.apply(pod, List.of(event))).isEqualTo(b.apply(pod, List.of(event)));
    }
}
