package dev.homing.sim.engine;

import dev.homing.protocol.hashing.BlockHash;
import java.util.List;

/**
 * Blocks that just became full and cached together: what vLLM's {@code cache_full_blocks} turns into one
 * {@code BlockStored} event.
 *
 * @param parentHash the hash of the block before the first of them, or null when they start the sequence
 * @param blockHashes their hashes, in order
 * @param tokenIds the tokens of all these blocks, {@code blockHashes.size() * blockSize} of them; owned by the callee
 * @param loraName the request's LoRA adapter, or null
 * @param loraId the adapter's integer id (vLLM's {@code lora_int_id}), 0 for none
 * @param extraKeys per block, the extra keys mixed into its hash (LoRA name, then {@code cache_salt} on a
 *     sequence's first block), or null for a block that has none
 */
public record StoredBlocks(
        BlockHash parentHash,
        List<BlockHash> blockHashes,
        int[] tokenIds,
        int blockSize,
        String loraName,
        int loraId,
        List<List<Object>> extraKeys) {
}
