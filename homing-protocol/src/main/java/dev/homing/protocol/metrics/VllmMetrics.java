package dev.homing.protocol.metrics;

/**
 * The names under which vLLM exports its Prometheus metrics (vllm/v1/metrics/loggers.py), as exposed:
 * counters carry the {@code _total} suffix. Every series is labelled {@code model_name} and {@code engine}.
 */
public final class VllmMetrics {

    public static final String LABEL_MODEL_NAME = "model_name";
    public static final String LABEL_ENGINE = "engine";
    public static final String LABEL_FINISHED_REASON = "finished_reason";

    public static final String NUM_REQUESTS_RUNNING = "vllm:num_requests_running";
    public static final String NUM_REQUESTS_WAITING = "vllm:num_requests_waiting";
    public static final String KV_CACHE_USAGE_PERC = "vllm:kv_cache_usage_perc";
    /** Before vLLM 0.11 (GIE PR #1905): still read as a fallback. */
    public static final String GPU_CACHE_USAGE_PERC = "vllm:gpu_cache_usage_perc";
    public static final String PREFIX_CACHE_QUERIES = "vllm:prefix_cache_queries";
    public static final String PREFIX_CACHE_HITS = "vllm:prefix_cache_hits";
    public static final String PROMPT_TOKENS = "vllm:prompt_tokens";
    public static final String GENERATION_TOKENS = "vllm:generation_tokens";
    public static final String NUM_PREEMPTIONS = "vllm:num_preemptions";
    public static final String REQUEST_SUCCESS = "vllm:request_success";
    public static final String TIME_TO_FIRST_TOKEN = "vllm:time_to_first_token_seconds";
    public static final String TIME_PER_OUTPUT_TOKEN = "vllm:time_per_output_token_seconds";
    public static final String INTER_TOKEN_LATENCY = "vllm:inter_token_latency_seconds";
    /** vLLM ≥ 0.11: per request, the mean of its inter-token gaps. */
    public static final String REQUEST_TIME_PER_OUTPUT_TOKEN = "vllm:request_time_per_output_token_seconds";
    public static final String E2E_REQUEST_LATENCY = "vllm:e2e_request_latency_seconds";
    public static final String REQUEST_QUEUE_TIME = "vllm:request_queue_time_seconds";
    public static final String REQUEST_INFERENCE_TIME = "vllm:request_inference_time_seconds";
    public static final String REQUEST_PREFILL_TIME = "vllm:request_prefill_time_seconds";
    public static final String REQUEST_DECODE_TIME = "vllm:request_decode_time_seconds";
    public static final String REQUEST_PROMPT_TOKENS = "vllm:request_prompt_tokens";
    public static final String REQUEST_GENERATION_TOKENS = "vllm:request_generation_tokens";
    public static final String REQUEST_PARAMS_MAX_TOKENS = "vllm:request_params_max_tokens";
    public static final String REQUEST_PARAMS_N = "vllm:request_params_n";
    public static final String REQUEST_MAX_NUM_GENERATION_TOKENS = "vllm:request_max_num_generation_tokens";
    public static final String ITERATION_TOKENS = "vllm:iteration_tokens_total";
    public static final String LORA_REQUESTS_INFO = "vllm:lora_requests_info";
    public static final String CACHE_CONFIG_INFO = "vllm:cache_config_info";

    /** Counters as they appear on the wire. */
    public static String total(String counter) {
        return counter + "_total";
    }

    private VllmMetrics() {
    }
}
