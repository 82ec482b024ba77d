package dev.homing.protocol.kvevents;

import java.util.List;

/**
 * What one ZMQ message carries: vLLM's {@code KVEventBatch}, the events of one engine step.
 *
 * @param ts wall-clock seconds since the epoch when the step ended ({@code time.time()})
 * @param dataParallelRank the engine's data-parallel rank; vLLM's publisher fills it, so null only from odd senders
 */
public record KvEventBatch(double ts, List<KvCacheEvent> events, Integer dataParallelRank) {

    public KvEventBatch {
        events = List.copyOf(events);
    }
}
