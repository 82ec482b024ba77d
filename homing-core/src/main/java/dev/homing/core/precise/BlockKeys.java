package dev.homing.core.precise;

import java.nio.charset.StandardCharsets;
import net.openhft.hashing.LongHashFunction;

/**
 * The router's own keys for KV blocks, computed from token ids: key i stands for tokens [0, (i+1)·blockSize) of a
 * sequence. They do not depend on the engine's hash algorithm or PYTHONHASHSEED (vLLM's default hashes cannot be
 * reproduced outside it); engine hashes are mapped onto them as events arrive. The chain starts from the LoRA adapter
 * and the cache salt, so the same tokens under another adapter or salt are another prefix. Only full blocks have keys,
 * as only full blocks are cached.
 */
public final class BlockKeys {

    private static final LongHashFunction XX = LongHashFunction.xx();

    private BlockKeys() {
    }

    /** The key the first block chains from. */
    public static long root(long seed, String adapter, String cacheSalt) {
        long h = XX.hashLong(seed);
        if (adapter != null) {
            h = XX.hashLong(h ^ XX.hashBytes(adapter.getBytes(StandardCharsets.UTF_8)));
        }
        if (cacheSalt != null) {
            h = XX.hashLong(h ^ 0x5A17_5A17_5A17_5A17L ^ XX.hashBytes(cacheSalt.getBytes(StandardCharsets.UTF_8)));
        }
        return h;
    }

    /** The key of the block of {@code tokens[offset, offset + blockSize)} that follows {@code parent}. */
    public static long next(long parent, int[] tokens, int offset, int blockSize) {
        return XX.hashLong(parent ^ XX.hashInts(tokens, offset, blockSize));
    }

    /**
     * Keys of every full block of {@code tokens}, at most {@code maxBlocks}.
     */
    public static long[] of(long root, int[] tokens, int blockSize, int maxBlocks) {
        int n = Math.min(tokens.length / blockSize, maxBlocks);
        long[] keys = new long[n];
        long prev = root;
        for (int i = 0; i < n; i++) {
            prev = next(prev, tokens, i * blockSize, blockSize);
            keys[i] = prev;
        }
        return keys;
    }
}
