package dev.homing.core.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code flowControl:}, llm-d's admission queues (behind the {@code flowControl} feature gate). Limits are Kubernetes
 * quantities ({@code 512Mi}); band fields other than the ones named here are kept as written.
 */
public record FlowControlSpec(Long maxBytes, Long maxRequests, Duration defaultRequestTTL,
                              Duration noEndpointRequestTTL, Band defaultPriorityBand,
                              Band defaultNegativePriorityBand, List<Band> priorityBands,
                              String usageLimitPolicyPluginRef, Boolean enableEviction,
                              PluginRefSpec saturationDetector) {

    public FlowControlSpec {
        priorityBands = List.copyOf(priorityBands);
    }

    /** A priority band's limits and policies. */
    public record Band(Integer priority, String priorityName, Long maxBytes, Long maxRequests,
                       String orderingPolicyRef, String fairnessPolicyRef, Map<String, Object> other, int line) {
    }
}
