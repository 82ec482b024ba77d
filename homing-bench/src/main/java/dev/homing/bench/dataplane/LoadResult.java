package dev.homing.bench.dataplane;

import org.HdrHistogram.Histogram;

/**
 * One measurement of one server: requests answered 2xx in the window, those that failed (another status or a broken
 * connection), and the latency of each answered one in microseconds (from its intended start, in open loop).
 */
public record LoadResult(long ok, long failed, double seconds, Histogram micros) {

    public double requestsPerSecond() {
        return ok / seconds;
    }

    /** The latency at {@code percentile} (0-100), in milliseconds. */
    public double millis(double percentile) {
        return micros.getTotalCount() == 0 ? Double.NaN : micros.getValueAtPercentile(percentile) / 1000.0;
    }
}
