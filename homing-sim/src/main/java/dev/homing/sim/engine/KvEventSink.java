package dev.homing.sim.engine;

import dev.homing.protocol.hashing.BlockHash;
import java.util.List;

/**
 * Where the engine reports prefix-cache changes, with the granularity of vLLM's KV events
 * ({@code vllm/v1/core/block_pool.py}): one {@link #onBlockStored} per group of blocks that became full together,
 * one {@link #onBlockRemoved} per evicted block, and {@link #onStepEnd} after each engine step so a publisher can send
 * one batch per step as vLLM does. Called on the engine's thread.
 */
public interface KvEventSink {

    /** Ignores everything; the engine then skips building events altogether. */
    KvEventSink NONE = new KvEventSink() {
    };

    /**
     * Blocks that just became full and cached.
     *
     * @param parentHash the hash of the block before the first of them, or null when they start the sequence
     * @param tokenIds the tokens of all these blocks, {@code blockHashes.size() * blockSize} of them
     * @param loraName the request's LoRA adapter, or null
     */
    default void onBlockStored(BlockHash parentHash, List<BlockHash> blockHashes, int[] tokenIds, int blockSize,
            String loraName) {
    }

    /** A cached block was evicted to make room. */
    default void onBlockRemoved(BlockHash blockHash) {
    }

    /** The prefix cache was reset. */
    default void onAllBlocksCleared() {
    }

    /** One engine step ended at model time {@code nanos}; events since the previous call belong to it. */
    default void onStepEnd(long nanos) {
    }
}
