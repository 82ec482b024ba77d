package dev.homing.core.precise;

import dev.homing.protocol.kvevents.BlockStored;
import java.util.Locale;

/**
 * How a {@code BlockStored} event turns into router keys, the same for every {@link PreciseIndex}: its chain starts
 * from its adapter and cache salt (or continues from its parent's key), and each full block of its tokens extends it.
 */
public final class StoredBlocks {

    private StoredBlocks() {
    }

    /** Whether the event's tokens can be keyed at our block size: the right size, and enough tokens for its blocks. */
    public static boolean keyable(BlockStored s, int blockSize) {
        int bs = s.blockSize() > 0 ? s.blockSize() : blockSize;
        return bs == blockSize && s.tokenCount() >= s.blockHashes().size() * bs;
    }

    /** The key an event without a parent chains from: its adapter and cache salt. */
    public static long chainStart(long seed, BlockStored s) {
        return BlockKeys.root(seed, s.loraName(), salt(s));
    }

    /**
     * Keys of the event's blocks, chained from {@code parent} (its parent's key, or {@link #chainStart}); the event
     * must be {@link #keyable}.
     */
    public static long[] keys(long parent, BlockStored s, int blockSize) {
        return BlockKeys.of(parent, s.tokenIds(), blockSize, s.blockHashes().size());
    }

    /** The cache salt among the first block's extra keys: a string that is not the adapter's name. */
    static String salt(BlockStored s) {
        if (s.extraKeys() == null || s.extraKeys().isEmpty() || s.extraKeys().get(0) == null) {
            return null;
        }
        String salt = null;
        for (Object k : s.extraKeys().get(0)) {
            if (k instanceof String str && !str.equals(s.loraName())) {
                salt = str;
            }
        }
        return salt;
    }

    /** The tier an event's medium names: lower-cased, GPU when absent (vLLM leaves it out for device memory). */
    public static String tierName(String medium) {
        return medium == null ? "gpu" : medium.toLowerCase(Locale.ROOT);
    }
}
