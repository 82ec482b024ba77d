package dev.homing.bench.workload;

/**
 * The prefix-cache hit rate of Belady's offline-optimal replacement over one cache of {@code capacity} blocks: what
 * the best eviction could reach with the fleet's whole KV memory pooled.
 *
 * <p>Requests are looked up in workload (arrival) order. A request hits the longest run of its leading full blocks
 * that is resident, at most {@code (tokens − 1) / blockSize} blocks (vLLM's prefix-only reuse and last-token rule);
 * then every full block of its prompt is accessed in order, and a block not resident is admitted when the cache has
 * room, or else in place of the resident block whose next use lies farthest ahead, unless its own next use is farther
 * (then it is not kept: an optimal cache may decline a block). Blocks never used again are the farthest; among them
 * the deepest goes first, so the resident set stays closed under "parent of".
 *
 * <p>Why it bounds any placement (docs/BENCHMARKS.md has the argument in full): a block's chained id names its whole
 * prefix, so a parent is used whenever its child is and its next use comes first; farthest-next-use therefore never
 * keeps a child that will be used without its parent, its block hits are its prefix hits, and by Belady no schedule
 * of this capacity has more. The union of a fleet's pod caches of the same total capacity is one such schedule.
 * O(A log C) for A block accesses: next uses come from one backward pass, the resident set is an indexed heap.
 */
public final class BeladyBound {

    private BeladyBound() {
    }

    /** Σ hit tokens / Σ prompt tokens with a pooled cache of {@code capacity} blocks. */
    public static double of(Workload w, int blockSize, long capacity) {
        return of(BlockTrace.of(w, blockSize), capacity);
    }

    static double of(BlockTrace t, long capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative, got " + capacity);
        }
        long total = t.totalPromptTokens();
        if (total == 0) {
            return 0;
        }
        int c = (int) Math.min(capacity, t.distinct);
        if (c == 0) {
            return 0;
        }
        int[] next = t.nextUse();
        LongMaxHeap resident = new LongMaxHeap(c, t.distinct);
        long hit = 0;
        for (int r = 0; r < t.requests(); r++) {
            int from = t.start[r];
            int to = t.start[r + 1];
            hit += (long) t.hitBlocks(r, resident::contains) * t.blockSize;
            for (int a = from; a < to; a++) {
                int id = t.ids[a];
                // farther next use is larger; at "never" the deeper block (larger depth) is larger
                // (never used again is Integer.MAX_VALUE, the farthest)
                long key = ((long) next[a] << 32) | (a - from);
                if (resident.contains(id)) {
                    resident.update(id, key);
                } else if (resident.size() < c) {
                    resident.add(id, key);
                } else if (resident.maxKey() > key) {
                    resident.pollMax();
                    resident.add(id, key);
                }
            }
        }
        return (double) hit / total;
    }
}
