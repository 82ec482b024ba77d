package dev.homing.protocol.metrics;

/** Exposition text that is not in the Prometheus text format; the message names the line. */
public final class MetricsFormatException extends Exception {
    public MetricsFormatException(String message) {
        super(message);
    }
}
