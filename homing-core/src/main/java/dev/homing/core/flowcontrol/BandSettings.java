package dev.homing.core.flowcontrol;

import dev.homing.core.framework.flowcontrol.FairnessPolicy;
import dev.homing.core.framework.flowcontrol.OrderingPolicy;
import java.util.Objects;

/**
 * One priority band's limits and policies.
 *
 * @param maxBytes    most bytes its queues may hold (llm-d's default 1 GB)
 * @param maxRequests most requests its queues may hold; 0 for no limit (llm-d's at 520af478)
 */
public record BandSettings(long maxBytes, long maxRequests, OrderingPolicy ordering, FairnessPolicy fairness) {

    /** llm-d's band byte limit when a band sets none ({@code defaultPriorityBandMaxBytes}). */
    public static final long DEFAULT_MAX_BYTES = 1_000_000_000L;

    public BandSettings {
        Objects.requireNonNull(ordering, "ordering");
        Objects.requireNonNull(fairness, "fairness");
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be > 0, got " + maxBytes);
        }
        if (maxRequests < 0) {
            throw new IllegalArgumentException("maxRequests must be >= 0, got " + maxRequests);
        }
    }
}
