package dev.homing.router.scrape;

import dev.homing.protocol.metrics.VllmMetrics;

/**
 * Which exposed metrics carry which signal, per engine type (llm-d's {@code engineConfigs}; defaults for vLLM).
 *
 * @param kvUsageFallback read when {@code kvUsage} is absent (vLLM before 0.11 named it differently)
 */
public record MetricNames(String waiting, String running, String kvUsage, String kvUsageFallback, String loraInfo,
                          String cacheInfo, String cacheBlockSizeLabel, String cacheNumBlocksLabel) {

    public static final MetricNames VLLM = new MetricNames(
            VllmMetrics.NUM_REQUESTS_WAITING, VllmMetrics.NUM_REQUESTS_RUNNING, VllmMetrics.KV_CACHE_USAGE_PERC,
            VllmMetrics.GPU_CACHE_USAGE_PERC, VllmMetrics.LORA_REQUESTS_INFO, VllmMetrics.CACHE_CONFIG_INFO,
            "block_size", "num_gpu_blocks");

    public static final MetricNames SGLANG = new MetricNames(
            "sglang:num_queue_reqs", "sglang:num_running_reqs", "sglang:token_usage", null, null,
            "sglang:cache_config_info", "page_size", "num_pages");

    /** The names for an engine type ({@code llm-d.ai/engine-type} label); vLLM when unknown. */
    public static MetricNames forEngine(String engineType) {
        return "sglang".equalsIgnoreCase(engineType) ? SGLANG : VLLM;
    }
}
