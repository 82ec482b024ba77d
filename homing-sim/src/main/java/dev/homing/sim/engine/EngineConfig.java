package dev.homing.sim.engine;

import java.util.Objects;

/**
 * The shape of one simulated vLLM engine: its KV cache, its scheduler limits and its cost model.
 *
 * @param blockSize tokens per KV block ({@code --block-size}, 16 on CUDA)
 * @param numGpuBlocks KV blocks, including the one vLLM reserves as its null block; usable blocks are one fewer
 * @param maxNumSeqs most requests in the running batch ({@code --max-num-seqs})
 * @param maxNumBatchedTokens token budget of one step ({@code --max-num-batched-tokens})
 * @param maxModelLen most tokens of prompt plus output ({@code --max-model-len})
 * @param hashSeed {@code PYTHONHASHSEED} for block hashing, or null for a random NONE_HASH (vLLM's default)
 * @param maxLoras most distinct LoRA adapters in the running batch ({@code --max-loras}); 0 when LoRA is off. A
 *     waiting request for another adapter is passed over, keeping its place, as vLLM's scheduler does
 */
public record EngineConfig(
        int blockSize,
        int numGpuBlocks,
        int maxNumSeqs,
        int maxNumBatchedTokens,
        int maxModelLen,
        CostModel cost,
        String hashSeed,
        int maxLoras) {

    public EngineConfig {
        Objects.requireNonNull(cost, "cost");
        if (blockSize < 1) {
            throw new IllegalArgumentException("blockSize must be at least 1, got " + blockSize);
        }
        if (numGpuBlocks < 2) {
            throw new IllegalArgumentException("numGpuBlocks must be at least 2 (one is the null block), got "
                    + numGpuBlocks);
        }
        if (maxNumSeqs < 1) {
            throw new IllegalArgumentException("maxNumSeqs must be at least 1, got " + maxNumSeqs);
        }
        if (maxNumBatchedTokens < 1) {
            throw new IllegalArgumentException("maxNumBatchedTokens must be at least 1, got " + maxNumBatchedTokens);
        }
        if (maxModelLen < 2) {
            throw new IllegalArgumentException("maxModelLen must be at least 2, got " + maxModelLen);
        }
        if (maxLoras < 0) {
            throw new IllegalArgumentException("maxLoras must not be negative, got " + maxLoras);
        }
    }

    /** Without LoRA. */
    public EngineConfig(int blockSize, int numGpuBlocks, int maxNumSeqs, int maxNumBatchedTokens, int maxModelLen,
            CostModel cost, String hashSeed) {
        this(blockSize, numGpuBlocks, maxNumSeqs, maxNumBatchedTokens, maxModelLen, cost, hashSeed, 0);
    }

    /** Tokens the KV cache holds: usable blocks times the block size. */
    public long kvCapacityTokens() {
        return (long) (numGpuBlocks - 1) * blockSize;
    }

    public EngineConfig withBlockSize(int v) {
        return new EngineConfig(v, numGpuBlocks, maxNumSeqs, maxNumBatchedTokens, maxModelLen, cost, hashSeed,
                maxLoras);
    }

    /**
     * A different block size over the same KV memory, as vLLM would size it: the usable token capacity stays (rounded
     * down to whole blocks), so bigger blocks mean fewer of them.
     */
    public EngineConfig withBlockSizeKeepingCapacity(int v) {
        if (v < 1) {
            throw new IllegalArgumentException("blockSize must be at least 1, got " + v);
        }
        long blocks = kvCapacityTokens() / v + 1;
        return withBlockSize(v).withNumGpuBlocks((int) Math.min(Integer.MAX_VALUE, Math.max(2, blocks)));
    }

    public EngineConfig withNumGpuBlocks(int v) {
        return new EngineConfig(blockSize, v, maxNumSeqs, maxNumBatchedTokens, maxModelLen, cost, hashSeed, maxLoras);
    }

    public EngineConfig withMaxNumSeqs(int v) {
        return new EngineConfig(blockSize, numGpuBlocks, v, maxNumBatchedTokens, maxModelLen, cost, hashSeed, maxLoras);
    }

    public EngineConfig withMaxNumBatchedTokens(int v) {
        return new EngineConfig(blockSize, numGpuBlocks, maxNumSeqs, v, maxModelLen, cost, hashSeed, maxLoras);
    }

    public EngineConfig withMaxModelLen(int v) {
        return new EngineConfig(blockSize, numGpuBlocks, maxNumSeqs, maxNumBatchedTokens, v, cost, hashSeed, maxLoras);
    }

    public EngineConfig withCost(CostModel v) {
        return new EngineConfig(blockSize, numGpuBlocks, maxNumSeqs, maxNumBatchedTokens, maxModelLen, v, hashSeed,
                maxLoras);
    }

    public EngineConfig withMaxLoras(int v) {
        return new EngineConfig(blockSize, numGpuBlocks, maxNumSeqs, maxNumBatchedTokens, maxModelLen, cost, hashSeed,
                v);
    }

    public EngineConfig withHashSeed(String v) {
        return new EngineConfig(blockSize, numGpuBlocks, maxNumSeqs, maxNumBatchedTokens, maxModelLen, cost, v,
                maxLoras);
    }
}
