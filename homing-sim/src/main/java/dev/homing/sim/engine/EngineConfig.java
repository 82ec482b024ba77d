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
 */
public record EngineConfig(
        int blockSize,
        int numGpuBlocks,
        int maxNumSeqs,
        int maxNumBatchedTokens,
        int maxModelLen,
        CostModel cost,
        String hashSeed) {

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
    }

    /** Tokens the KV cache holds: usable blocks times the block size. */
    public long kvCapacityTokens() {
        return (long) (numGpuBlocks - 1) * blockSize;
    }

    public EngineConfig withBlockSize(int v) {
        return new EngineConfig(v, numGpuBlocks, maxNumSeqs, maxNumBatchedTokens, maxModelLen, cost, hashSeed);
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
        return new EngineConfig(blockSize, v, maxNumSeqs, maxNumBatchedTokens, maxModelLen, cost, hashSeed);
    }

    public EngineConfig withMaxNumSeqs(int v) {
        return new EngineConfig(blockSize, numGpuBlocks, v, maxNumBatchedTokens, maxModelLen, cost, hashSeed);
    }

    public EngineConfig withMaxNumBatchedTokens(int v) {
        return new EngineConfig(blockSize, numGpuBlocks, maxNumSeqs, v, maxModelLen, cost, hashSeed);
    }

    public EngineConfig withMaxModelLen(int v) {
        return new EngineConfig(blockSize, numGpuBlocks, maxNumSeqs, maxNumBatchedTokens, v, cost, hashSeed);
    }

    public EngineConfig withCost(CostModel v) {
        return new EngineConfig(blockSize, numGpuBlocks, maxNumSeqs, maxNumBatchedTokens, maxModelLen, v, hashSeed);
    }

    public EngineConfig withHashSeed(String v) {
        return new EngineConfig(blockSize, numGpuBlocks, maxNumSeqs, maxNumBatchedTokens, maxModelLen, cost, v);
    }
}
