package dev.homing.bench.soak;

import dev.homing.protocol.config.GoDuration;
import java.time.Duration;

/**
 * How a soak runs.
 *
 * @param duration    how long the load runs; a whole number of {@code sampleEvery}
 * @param sampleEvery the interval between samples of the router (a minute by default)
 * @param concurrency clients, each with one request at a time
 * @param rate        requests started a second in all, or 0 for as fast as the clients go
 * @param killEvery   a pod killed every this long (zero: none)
 * @param downFor     how long a killed pod stays down before it is started again
 * @param seed        the mix's order and prompts, and the first pod killed
 * @param readTimeout the longest a client waits for the router's next byte before giving the request up
 * @param restTimeout after the load, the longest to wait for the router's in-flight gauges to come to 0
 */
public record SoakSettings(Duration duration, Duration sampleEvery, int concurrency, double rate, Duration killEvery,
                           Duration downFor, long seed, Duration readTimeout, Duration restTimeout) {

    public SoakSettings {
        positive(duration, "the duration");
        positive(sampleEvery, "the sampling interval");
        positive(readTimeout, "the read timeout");
        positive(restTimeout, "the rest timeout");
        if (killEvery.isNegative() || downFor.isNegative()) {
            throw new IllegalArgumentException("the kill interval and the time down cannot be negative");
        }
        if (duration.toNanos() % sampleEvery.toNanos() != 0) {
            throw new IllegalArgumentException("the duration (" + GoDuration.format(duration) + ") must be a whole "
                    + "number of sampling intervals (" + GoDuration.format(sampleEvery) + ")");
        }
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
        }
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("the rate must be a positive number of requests a second, got " + rate);
        }
    }

    /** Samples taken under load. */
    public int samples() {
        return Math.toIntExact(duration.toNanos() / sampleEvery.toNanos());
    }

    /** Pods killed (and restarted) in the run. */
    public int kills() {
        return Faults.planned(killEvery, downFor, duration);
    }

    private static void positive(Duration d, String what) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(what + " must be positive, got " + (d == null ? null
                    : GoDuration.format(d)));
        }
    }
}
