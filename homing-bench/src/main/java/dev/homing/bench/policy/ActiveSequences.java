package dev.homing.bench.policy;

import java.util.HashMap;
import java.util.Map;

/**
 * What Dynamo's router knows of one worker's load, counted by itself ({@code ActiveSequences}, with its defaults
 * {@code router_track_active_blocks} on, {@code router_assume_kv_reuse} on, {@code router_track_output_blocks} off):
 * the distinct prompt blocks of the requests in flight (a block two requests share counts once) and the prompt tokens
 * still to prefill (a request's uncached tokens from its dispatch until its first token).
 */
final class ActiveSequences {

    private final LongTable blockRefs = new LongTable(1 << 12);
    private final Map<String, long[]> blocks = new HashMap<>();
    private final Map<String, Integer> prefill = new HashMap<>();
    private long activeTokens;

    /** Blocks the request would add: its keys no request in flight holds. */
    int newBlocks(long[] keys) {
        int n = 0;
        for (long k : keys) {
            if (!blockRefs.containsKey(k)) {
                n++;
            }
        }
        return n;
    }

    int activeBlocks() {
        return blockRefs.size();
    }

    long activeTokens() {
        return activeTokens;
    }

    void add(String requestId, long[] keys, int prefillTokens) {
        blocks.put(requestId, keys);
        for (long k : keys) {
            blockRefs.add(k, 1);
        }
        prefill.put(requestId, prefillTokens);
        activeTokens += prefillTokens;
    }

    /** The request's first token: its prefill no longer loads the worker. */
    void markPrefillCompleted(String requestId) {
        Integer t = prefill.remove(requestId);
        if (t != null) {
            activeTokens -= t;
        }
    }

    void free(String requestId) {
        markPrefillCompleted(requestId);
        long[] keys = blocks.remove(requestId);
        if (keys == null) {
            return;
        }
        for (long k : keys) {
            if (blockRefs.add(k, -1) <= 0) {
                blockRefs.remove(k, 0);
            }
        }
    }
}
