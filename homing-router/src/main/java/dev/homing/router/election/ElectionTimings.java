package dev.homing.router.election;

import java.time.Duration;

/**
 * How a Lease is held, as client-go's leader election (and controller-runtime, which llm-d's picker runs on) times
 * it.
 *
 * @param leaseDuration how long a lease not renewed holds: a standby takes over this long after the leader's last
 *                      renewal (controller-runtime: 15 s)
 * @param renewDeadline how long the leader keeps trying to renew before it stops leading (10 s)
 * @param retryPeriod   how often a candidate tries to acquire, and the leader to renew (2 s)
 */
public record ElectionTimings(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {

    /** controller-runtime's defaults, which llm-d keeps. */
    public static final ElectionTimings DEFAULT = new ElectionTimings(Duration.ofSeconds(15), Duration.ofSeconds(10),
            Duration.ofSeconds(2));

    public ElectionTimings {
        if (leaseDuration.compareTo(renewDeadline) <= 0 || renewDeadline.compareTo(retryPeriod) <= 0
                || retryPeriod.isNegative() || retryPeriod.isZero()) {
            throw new IllegalArgumentException("leader election needs leaseDuration > renewDeadline > retryPeriod > "
                    + "0, got " + leaseDuration + ", " + renewDeadline + ", " + retryPeriod);
        }
    }
}
