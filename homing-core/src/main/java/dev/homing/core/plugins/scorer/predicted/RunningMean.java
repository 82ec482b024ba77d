package dev.homing.core.plugins.scorer.predicted;

/**
 * The mean of the last values seen, about {@code window} of them: the plain mean until there are that many (so the
 * first value counts fully, not a fraction of it against a made-up zero), then an exponential moving average with the
 * same weight. Thread-safe.
 */
final class RunningMean {

    private final int window;
    private double mean;
    private long count;

    RunningMean(int window) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be >= 1");
        }
        this.window = window;
    }

    synchronized void add(double value) {
        if (!Double.isFinite(value)) {
            return;
        }
        count++;
        mean += (value - mean) / Math.min(count, window);
    }

    /** 0 before any value. */
    synchronized double value() {
        return mean;
    }
}
