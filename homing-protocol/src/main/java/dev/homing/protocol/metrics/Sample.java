package dev.homing.protocol.metrics;

import java.util.Map;

/**
 * One sample line of the Prometheus text format.
 *
 * @param timestampMs the optional timestamp, or {@link Long#MIN_VALUE} when the line has none
 */
public record Sample(String name, Map<String, String> labels, double value, long timestampMs) {

    public static final long NO_TIMESTAMP = Long.MIN_VALUE;

    public Sample {
        labels = Map.copyOf(labels);
    }

    public String label(String key) {
        return labels.get(key);
    }

    public boolean hasTimestamp() {
        return timestampMs != NO_TIMESTAMP;
    }
}
