package dev.homing.core.precise;

import java.util.Map;

/**
 * Makes the index a {@code precise-prefix-cache-producer} keeps its holdings in. The host chooses, through the plugin
 * context: {@link #IN_MEMORY} unless it says otherwise; the router provides a Redis-backed one when its replicas share
 * state.
 */
@FunctionalInterface
public interface PreciseIndexFactory {

    /** This process's memory only. */
    PreciseIndexFactory IN_MEMORY = InMemoryPreciseIndex::new;

    /**
     * @param maxEntries  most (pod, block, tier) holdings kept; beyond, the least recently stored go
     * @param blockSize   tokens per block
     * @param seed        mixed into every key (llm-d's {@code hashSeed})
     * @param tierWeights weight per tier name (lower-case medium); unknown tiers weigh 1.0
     */
    PreciseIndex create(long maxEntries, int blockSize, long seed, Map<String, Double> tierWeights);
}
