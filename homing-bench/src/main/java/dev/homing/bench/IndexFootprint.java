package dev.homing.bench;

import dev.homing.core.learned.InMemoryApproxIndex;
import dev.homing.core.precise.InMemoryPreciseIndex;
import dev.homing.protocol.kvevents.BlockStored;
import dev.homing.protocol.kvevents.EventBlockHash;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Heap bytes per indexed block, measured: fills an index with a million (pod, block) holdings in chains like a pod's
 * cache, and divides the heap growth (after collections, before and after) by the holdings. Prints one line per index.
 */
public final class IndexFootprint {

    private IndexFootprint() {
    }

    public static void main(String[] args) {
        int blocks = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        System.out.printf("precise index (in memory): %.1f bytes per indexed block (%,d blocks)%n",
                precise(blocks), blocks);
        System.out.printf("approximate index:         %.1f bytes per indexed block (%,d blocks)%n",
                approximate(blocks), blocks);
    }

    static double precise(int blocks) {
        SplittableRandom random = new SplittableRandom(1);
        long before = usedAfterGc();
        InMemoryPreciseIndex index = new InMemoryPreciseIndex(blocks * 2L, 16, 42, InMemoryPreciseIndex.DEFAULT_TIER_WEIGHTS);
        int chain = 64; // blocks per sequence
        int[] tokens = new int[chain * 16];
        for (int done = 0; done < blocks; done += chain) {
            for (int t = 0; t < tokens.length; t++) {
                tokens[t] = random.nextInt(150_000);
            }
            List<EventBlockHash> hashes = new ArrayList<>(chain);
            for (int i = 0; i < chain; i++) {
                hashes.add(EventBlockHash.ofUint64(random.nextLong()));
            }
            index.apply("pod-" + (done / chain % 8), List.of(new BlockStored(hashes, null, tokens, 16, null, "GPU",
                    null, null, 0, "full_attention", null)));
        }
        long after = usedAfterGc();
        long held = index.size();
        if (held == 0) {
            throw new IllegalStateException("nothing indexed");
        }
        return (double) (after - before) / held;
    }

    static double approximate(int blocks) {
        SplittableRandom random = new SplittableRandom(2);
        long before = usedAfterGc();
        InMemoryApproxIndex index = new InMemoryApproxIndex(blocks * 2L);
        long[] hashes = new long[64];
        for (int done = 0; done < blocks; done += hashes.length) {
            for (int i = 0; i < hashes.length; i++) {
                hashes[i] = random.nextLong();
            }
            index.record("pod-" + (done / hashes.length % 8), hashes, blocks);
        }
        long after = usedAfterGc();
        return (double) (after - before) / index.size();
    }

    private static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            used = Math.min(used, rt.totalMemory() - rt.freeMemory());
        }
        return used;
    }
}
