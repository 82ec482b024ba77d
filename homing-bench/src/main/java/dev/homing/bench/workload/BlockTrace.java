package dev.homing.bench.workload;

import dev.homing.core.collect.CompactLongLongMap;
import dev.homing.core.precise.BlockKeys;

/**
 * A workload flattened for cache bounds: requests in workload (arrival) order, each as the dense ids of its prompt's
 * full blocks (from the chained 64-bit keys the precise index uses, so an id names the whole prefix up to its block
 * and different models never share one), with how many of them the request may hit (vLLM computes at least the last
 * prompt token: at most {@code (tokens − 1) / blockSize} blocks) and its prompt length. Built once, shared by the
 * bounds that replay it.
 */
final class BlockTrace {

    /** Block ids, request after request; request r's are {@code ids[start[r]] … ids[start[r + 1] − 1]}. */
    final int[] ids;
    final int[] start;
    final int[] hitCap;
    final long[] promptTokens;
    /** Distinct block ids: every id is below it. */
    final int distinct;
    final int blockSize;

    private BlockTrace(int[] ids, int[] start, int[] hitCap, long[] promptTokens, int distinct, int blockSize) {
        this.ids = ids;
        this.start = start;
        this.hitCap = hitCap;
        this.promptTokens = promptTokens;
        this.distinct = distinct;
        this.blockSize = blockSize;
    }

    static BlockTrace of(Workload w, int blockSize) {
        if (blockSize < 1) {
            throw new IllegalArgumentException("blockSize must be at least 1, got " + blockSize);
        }
        int n = w.requests().size();
        int[] start = new int[n + 1];
        int[] cap = new int[n];
        long[] prompt = new long[n];
        long[][] keys = new long[n][];
        long total = 0;
        for (int r = 0; r < n; r++) {
            WorkloadRequest q = w.requests().get(r);
            int[] tokens = HitRateBound.tokens(q.prompt());
            keys[r] = BlockKeys.of(BlockKeys.root(0, String.valueOf(q.model()), null), tokens, blockSize,
                    Integer.MAX_VALUE);
            cap[r] = tokens.length == 0 ? 0 : (tokens.length - 1) / blockSize;
            prompt[r] = tokens.length;
            total += keys[r].length;
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("workload has " + total + " block accesses; the bounds take at most "
                    + (Integer.MAX_VALUE - 8));
        }
        int[] ids = new int[(int) total];
        CompactLongLongMap dense = new CompactLongLongMap();
        int at = 0;
        for (int r = 0; r < n; r++) {
            start[r] = at;
            for (long key : keys[r]) {
                long id = dense.get(key, -1);
                if (id < 0) {
                    id = dense.size();
                    dense.put(key, id);
                }
                ids[at++] = (int) id;
            }
            keys[r] = null;
        }
        start[n] = at;
        return new BlockTrace(ids, start, cap, prompt, dense.size(), blockSize);
    }

    /**
     * How many of request r's blocks a cache holding {@code resident} serves: the longest run of its leading blocks
     * all present, stopped at the first absent one whatever follows (vLLM's prefix-only reuse), capped at
     * {@link #hitCap}.
     */
    int hitBlocks(int r, java.util.function.IntPredicate resident) {
        int from = start[r];
        int to = start[r + 1];
        int matched = 0;
        while (from + matched < to && resident.test(ids[from + matched])) {
            matched++;
        }
        return Math.min(matched, hitCap[r]);
    }

    int requests() {
        return hitCap.length;
    }

    long totalPromptTokens() {
        long t = 0;
        for (long p : promptTokens) {
            t += p;
        }
        return t;
    }

    /**
     * For every access, the position of the next access to the same block, or {@link Integer#MAX_VALUE} when it is
     * never used again: one backward pass.
     */
    int[] nextUse() {
        int[] next = new int[ids.length];
        int[] last = new int[distinct];
        java.util.Arrays.fill(last, Integer.MAX_VALUE);
        for (int i = ids.length - 1; i >= 0; i--) {
            next[i] = last[ids[i]];
            last[ids[i]] = i;
        }
        return next;
    }
}
