package dev.homing.router.metrics;

import dev.homing.core.director.ResponseAffinity;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The director's memory of which pod answered each stored Responses API response: how full it is, how often a
 * follow-up was sent back to its pod, and how often it could not be (the pod was no candidate).
 */
final class ResponseAffinityMetrics {

    private ResponseAffinityMetrics() {
    }

    static void register(PrometheusRegistry registry, ResponseAffinity responses) {
        GaugeWithCallback.builder().name("homing_response_affinity_entries")
                .help("Response ids remembered with the pod that answered them (bounded; least recently used evicted).")
                .callback(cb -> cb.call(responses.size())).register(registry);
        CounterWithCallback.builder().name("homing_response_affinity_evictions")
                .help("Response ids forgotten to stay within the bound.")
                .callback(cb -> cb.call(responses.evicted())).register(registry);
        CounterWithCallback.builder().name("homing_response_affinity_requests")
                .help("Requests naming a remembered response: sent to its pod (pinned), or routed as any other because "
                        + "that pod was no candidate (unpinned).").labelNames("outcome")
                .callback(cb -> {
                    cb.call(responses.pinned(), "pinned");
                    cb.call(responses.unpinned(), "unpinned");
                }).register(registry);
    }
}
