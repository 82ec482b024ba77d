package dev.homing.sim.engine;

import java.util.List;

/**
 * A snapshot of one engine, in vLLM's terms: the scheduler gauges and the cumulative counters behind
 * {@code vllm:*_total}.
 *
 * @param running requests in the running batch ({@code vllm:num_requests_running})
 * @param waiting requests in the scheduler's waiting queue, preempted ones included ({@code vllm:num_requests_waiting})
 * @param arriving requests still in the per-request API overhead, not yet visible to the scheduler
 * @param kvCacheUsage blocks held by requests over usable blocks, 0..1 ({@code vllm:kv_cache_usage_perc});
 *                     cached blocks nobody holds count as free, as in vLLM
 * @param prefixCacheQueries prompt tokens looked up in the prefix cache, counted once per new request
 * @param prefixCacheHits of those, tokens found
 * @param runningLoras distinct LoRA adapters of the running requests, sorted ({@code vllm:lora_requests_info})
 * @param waitingLoras distinct LoRA adapters of the waiting requests, sorted
 */
public record EngineStats(
        int running,
        int waiting,
        int arriving,
        double kvCacheUsage,
        int usedBlocks,
        int usableBlocks,
        int cachedBlocks,
        long promptTokens,
        long generationTokens,
        long prefixCacheQueries,
        long prefixCacheHits,
        long preemptions,
        long finishedStop,
        long finishedLength,
        long finishedAbort,
        long steps,
        List<String> runningLoras,
        List<String> waitingLoras) {

    public EngineStats {
        runningLoras = List.copyOf(runningLoras);
        waitingLoras = List.copyOf(waitingLoras);
    }

    public long finished(FinishReason reason) {
        return switch (reason) {
            case STOP -> finishedStop;
            case LENGTH -> finishedLength;
            case ABORT -> finishedAbort;
        };
    }
}
