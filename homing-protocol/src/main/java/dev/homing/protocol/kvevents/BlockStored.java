package dev.homing.protocol.kvevents;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Blocks that became full and cached together ({@code cache_full_blocks}): their hashes, the hash of the block before
 * them, and the tokens of all of them. Fields in vLLM's declaration order; on the wire the legacy array carries them by
 * position after the tag.
 *
 * @param parentBlockHash the block before the first of these, or null when they start a sequence
 * @param tokenIds the tokens of all these blocks ({@code blockHashes.size() * blockSize}; empty for a CPU-offload copy)
 * @param blockSize tokens per block; 0 when the sender left it out
 * @param loraId vLLM's deprecated integer adapter id, or null
 * @param medium {@code "GPU"} or {@code "CPU"}; may be null
 * @param loraName the adapter's name, or null for the base model
 * @param extraKeys per block, the extra keys mixed into its hash (LoRA name, multimodal ids, cache salt) or null;
 *     the whole list is null when the sender predates the field
 * @param groupIdx the KV cache group, or null
 * @param kvCacheSpecKind e.g. {@code "full_attention"}, or null
 * @param kvCacheSpecSlidingWindow the window of a sliding-window group, or null
 */
public record BlockStored(
        List<EventBlockHash> blockHashes,
        EventBlockHash parentBlockHash,
        int[] tokenIds,
        int blockSize,
        Integer loraId,
        String medium,
        String loraName,
        List<List<Object>> extraKeys,
        Integer groupIdx,
        String kvCacheSpecKind,
        Integer kvCacheSpecSlidingWindow) implements KvCacheEvent {

    static final String TAG = "BlockStored";

    public BlockStored {
        blockHashes = List.copyOf(blockHashes);
        tokenIds = tokenIds.clone();
        extraKeys = extraKeys == null ? null : nullableCopy(extraKeys);
    }

    /**
     * As vLLM ≥ 0.26 fills one for full-attention GPU blocks (its real event:
     * {@code medium "GPU", extra_keys one entry per block, group_idx 0, kv_cache_spec_kind "full_attention"}).
     */
    public static BlockStored gpu(List<EventBlockHash> blockHashes, EventBlockHash parent, int[] tokenIds,
            int blockSize, Integer loraId, String loraName, List<List<Object>> extraKeys) {
        Objects.requireNonNull(extraKeys, "extraKeys");
        if (extraKeys.size() != blockHashes.size()) {
            throw new IllegalArgumentException("one extra-keys entry per block: " + extraKeys.size() + " for "
                    + blockHashes.size() + " blocks");
        }
        return new BlockStored(blockHashes, parent, tokenIds, blockSize, loraId, "GPU", loraName, extraKeys, 0,
                "full_attention", null);
    }

    /** The tokens; a copy. */
    @Override
    public int[] tokenIds() {
        return tokenIds.clone();
    }

    /** How many tokens, without copying them (0 for a CPU-offload copy of blocks already held). */
    public int tokenCount() {
        return tokenIds.length;
    }

    int[] tokenIdsUnsafe() {
        return tokenIds;
    }

    private static List<List<Object>> nullableCopy(List<List<Object>> keys) {
        List<List<Object>> out = new ArrayList<>(keys.size());
        for (List<Object> k : keys) {
            out.add(k == null ? null : Collections.unmodifiableList(new ArrayList<>(k)));
        }
        return Collections.unmodifiableList(out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BlockStored s && blockSize == s.blockSize && blockHashes.equals(s.blockHashes)
                && Objects.equals(parentBlockHash, s.parentBlockHash) && Arrays.equals(tokenIds, s.tokenIds)
                && Objects.equals(loraId, s.loraId) && Objects.equals(medium, s.medium)
                && Objects.equals(loraName, s.loraName) && Objects.equals(extraKeys, s.extraKeys)
                && Objects.equals(groupIdx, s.groupIdx) && Objects.equals(kvCacheSpecKind, s.kvCacheSpecKind)
                && Objects.equals(kvCacheSpecSlidingWindow, s.kvCacheSpecSlidingWindow);
    }

    @Override
    public int hashCode() {
        return 31 * blockHashes.hashCode() + Arrays.hashCode(tokenIds);
    }

    @Override
    public String toString() {
        return "BlockStored[blockHashes=" + blockHashes + ", parent=" + parentBlockHash + ", tokens="
                + tokenIds.length + ", blockSize=" + blockSize + ", loraId=" + loraId + ", medium=" + medium
                + ", loraName=" + loraName + ", extraKeys=" + extraKeys + ", groupIdx=" + groupIdx + ", kind="
                + kvCacheSpecKind + ", window=" + kvCacheSpecSlidingWindow + "]";
    }
}
