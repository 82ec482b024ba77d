package dev.homing.core.flowcontrol;

import dev.homing.core.framework.flowcontrol.EvictionFilter;
import dev.homing.core.framework.flowcontrol.EvictionOrderPolicy;
import dev.homing.core.framework.flowcontrol.UsageLimitPolicy;
import java.util.Map;
import java.util.Objects;

/**
 * A resolved {@code flowControl:} section: what the {@link FlowController} enforces.
 *
 * @param maxBytes        most bytes all queues together may hold; 0 for no global limit
 * @param maxRequests     most requests all queues together may hold; 0 for no global limit
 * @param defaultTtlNanos how long a request may wait; 0 for no limit (it waits until dispatched or its client leaves)
 * @param bands           the configured bands by priority
 * @param defaultBand     the template for a priority no band is configured for (such bands come and go)
 * @param negativeBand    the template for a negative priority no band is configured for; null to use
 *                        {@code defaultBand}
 * @param eviction        whether dispatched requests may be evicted for more important waiting ones (then
 *                        {@code evictionFilter} and {@code evictionOrder} say which)
 */
public record FlowControlSettings(long maxBytes, long maxRequests, long defaultTtlNanos,
                                  Map<Integer, BandSettings> bands, BandSettings defaultBand, BandSettings negativeBand,
                                  UsageLimitPolicy usageLimit, boolean eviction, EvictionFilter evictionFilter,
                                  EvictionOrderPolicy evictionOrder) {

    public FlowControlSettings {
        bands = Map.copyOf(bands);
        Objects.requireNonNull(defaultBand, "defaultBand");
        Objects.requireNonNull(usageLimit, "usageLimit");
        if (eviction) {
            Objects.requireNonNull(evictionFilter, "evictionFilter");
            Objects.requireNonNull(evictionOrder, "evictionOrder");
        }
    }

    /** The settings of the band for {@code priority}: its own, or the default template. */
    public BandSettings band(int priority) {
        BandSettings b = bands.get(priority);
        if (b != null) {
            return b;
        }
        return priority < 0 && negativeBand != null ? negativeBand : defaultBand;
    }
}
