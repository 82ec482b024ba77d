package dev.homing.sim.engine;

import dev.homing.protocol.hashing.BlockHash;

/**
 * Where the engine reports prefix-cache changes, with the granularity of vLLM's KV events
 * ({@code vllm/v1/core/block_pool.py}): one {@link #onBlockStored} per group of blocks that became full together, one
 * {@link #onBlockRemoved} per evicted block, and {@link #onSchedulerStep} after each step's scheduling, where vLLM's
 * scheduler publishes the step's batch (the end of {@code schedule()}, before the forward pass runs). Every change
 * happens while scheduling, so each step's events arrive between two {@code onSchedulerStep} calls. Called on the
 * engine's thread.
 */
public interface KvEventSink {

    /** Ignores everything; the engine then skips building events altogether. */
    KvEventSink NONE = new KvEventSink() {
    };

    /** Blocks that just became full and cached. */
    default void onBlockStored(StoredBlocks blocks) {
    }

    /** A cached block was evicted to make room. */
    default void onBlockRemoved(BlockHash blockHash) {
    }

    /**
     * The prefix cache was reset. The engine follows it with {@link #onSchedulerStep} at once, so the event goes out
     * without waiting for a step (vLLM sends it with the next step's batch, which on an idle engine is never).
     */
    default void onAllBlocksCleared() {
    }

    /** One step was scheduled at model time {@code nanos}; events since the previous call belong to it. */
    default void onSchedulerStep(long nanos) {
    }
}
