package dev.homing.core.plugins.datalayer;

import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import java.util.List;

/**
 * Where one inference engine keeps the metrics routing needs (llm-d's {@code engineConfigs} entry). A null spec is
 * not read. The KV-cache geometry comes either from an info gauge's labels ({@code cacheInfoSpec} with
 * {@code cacheBlockSizeLabelName}, default {@code block_size}, and {@code cacheNumBlocksLabelName}, default
 * {@code num_gpu_blocks}) or from two gauges ({@code cacheBlockSizeSpec}, {@code cacheNumBlocksSpec}).
 *
 * @param kvUsageFallback read when {@code kvUsage} is absent: the built-in vLLM engine's name before vLLM 0.11
 *     ({@code vllm:gpu_cache_usage_perc}); null for every other engine and for configured ones
 */
public record EngineConfig(String name, MetricSpec queuedRequests, MetricSpec runningRequests, MetricSpec kvUsage,
                           MetricSpec lora, MetricSpec cacheInfo, String cacheBlockSizeLabelName,
                           String cacheNumBlocksLabelName, MetricSpec cacheBlockSize, MetricSpec cacheNumBlocks,
                           MetricSpec kvUsageFallback) {

    /** llm-d's built-in engines, used for every name a config does not define itself. */
    public static final List<EngineConfig> BUILT_IN = List.of(
            of("vllm", "vllm:num_requests_waiting", "vllm:num_requests_running", "vllm:kv_cache_usage_perc",
                    "vllm:lora_requests_info", "vllm:cache_config_info", null, null, null, null)
                    .withKvUsageFallback(MetricSpec.parse("kvUsageSpec", "vllm:gpu_cache_usage_perc")),
            of("sglang", "sglang:num_queue_reqs", "sglang:num_running_reqs", "sglang:token_usage",
                    null, "sglang:cache_config_info", "page_size", "num_pages", null, null),
            of("trtllm-serve", "trtllm_num_requests_waiting", "trtllm_num_requests_running",
                    "trtllm_kv_cache_utilization", null, null, null, null,
                    "trtllm_kv_cache_tokens_per_block", "trtllm_kv_cache_max_blocks"),
            of("triton-tensorrt-llm", "nv_trt_llm_request_metrics{request_type=waiting}",
                    "nv_trt_llm_request_metrics{request_type=scheduled}",
                    "nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=fraction}", null, null, null, null,
                    "nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=tokens_per}",
                    "nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=max}"));

    public EngineConfig {
        if (name == null || name.isEmpty()) {
            throw new PluginConfigException("'name' is required");
        }
        if (name.equals(CoreMetricsExtractor.DEFAULT_ENGINE_KEY)) {
            throw new PluginConfigException("'name' cannot be '" + CoreMetricsExtractor.DEFAULT_ENGINE_KEY
                    + "' (reserved)");
        }
        cacheBlockSizeLabelName = cacheBlockSizeLabelName == null || cacheBlockSizeLabelName.isEmpty()
                ? "block_size" : cacheBlockSizeLabelName;
        cacheNumBlocksLabelName = cacheNumBlocksLabelName == null || cacheNumBlocksLabelName.isEmpty()
                ? "num_gpu_blocks" : cacheNumBlocksLabelName;
    }

    private static EngineConfig of(String name, String queued, String running, String kv, String lora,
                                   String cacheInfo, String blockSizeLabel, String numBlocksLabel, String blockSize,
                                   String numBlocks) {
        return new EngineConfig(name, MetricSpec.parse("queuedRequestsSpec", queued),
                MetricSpec.parse("runningRequestsSpec", running), MetricSpec.parse("kvUsageSpec", kv),
                MetricSpec.parse("loraSpec", lora), MetricSpec.parse("cacheInfoSpec", cacheInfo), blockSizeLabel,
                numBlocksLabel, MetricSpec.parse("cacheBlockSizeSpec", blockSize),
                MetricSpec.parse("cacheNumBlocksSpec", numBlocks), null);
    }

    private EngineConfig withKvUsageFallback(MetricSpec fallback) {
        return new EngineConfig(name, queuedRequests, runningRequests, kvUsage, lora, cacheInfo,
                cacheBlockSizeLabelName, cacheNumBlocksLabelName, cacheBlockSize, cacheNumBlocks, fallback);
    }

    /** One {@code engineConfigs} entry. */
    static EngineConfig read(Parameters p) {
        return new EngineConfig(p.string("name", null),
                MetricSpec.parse("queuedRequestsSpec", p.string("queuedRequestsSpec", null)),
                MetricSpec.parse("runningRequestsSpec", p.string("runningRequestsSpec", null)),
                MetricSpec.parse("kvUsageSpec", p.string("kvUsageSpec", null)),
                MetricSpec.parse("loraSpec", p.string("loraSpec", null)),
                MetricSpec.parse("cacheInfoSpec", p.string("cacheInfoSpec", null)),
                p.string("cacheBlockSizeLabelName", null), p.string("cacheNumBlocksLabelName", null),
                MetricSpec.parse("cacheBlockSizeSpec", p.string("cacheBlockSizeSpec", null)),
                MetricSpec.parse("cacheNumBlocksSpec", p.string("cacheNumBlocksSpec", null)), null);
    }
}
