package dev.homing.core.endpoint;

import java.util.Set;

/**
 * What the last scrape of an endpoint's {@code /metrics} said. Missing values are -1 (counts) or NaN (ratios), so a
 * scorer can tell "unknown" from "zero".
 *
 * @param waiting        {@code vllm:num_requests_waiting}
 * @param running        {@code vllm:num_requests_running}
 * @param kvCacheUsage   {@code vllm:kv_cache_usage_perc}, 0..1
 * @param blockSize      {@code vllm:cache_config_info{block_size}}, tokens per KV block
 * @param numGpuBlocks   {@code vllm:cache_config_info{num_gpu_blocks}}
 * @param activeModels   LoRA adapters running ({@code vllm:lora_requests_info{running_lora_adapters}})
 * @param waitingModels  LoRA adapters waiting
 * @param maxActiveModels {@code max_lora}, -1 when unknown
 * @param updatedNanos   ticker time of the scrape that produced these values; {@link Long#MIN_VALUE} if never
 */
public record EndpointMetrics(
        int waiting,
        int running,
        double kvCacheUsage,
        int blockSize,
        long numGpuBlocks,
        Set<String> activeModels,
        Set<String> waitingModels,
        int maxActiveModels,
        long updatedNanos) {

    public static final EndpointMetrics UNKNOWN =
            new EndpointMetrics(-1, -1, Double.NaN, -1, -1, Set.of(), Set.of(), -1, Long.MIN_VALUE);

    public EndpointMetrics {
        activeModels = Set.copyOf(activeModels);
        waitingModels = Set.copyOf(waitingModels);
    }

    public boolean known() {
        return updatedNanos != Long.MIN_VALUE;
    }

    /** Tokens the endpoint's KV cache holds, or -1 when the cache config was not scraped. */
    public long kvCapacityTokens() {
        return blockSize > 0 && numGpuBlocks > 0 ? (long) blockSize * numGpuBlocks : -1;
    }

    public long ageNanos(long nowNanos) {
        return known() ? nowNanos - updatedNanos : Long.MAX_VALUE;
    }
}
