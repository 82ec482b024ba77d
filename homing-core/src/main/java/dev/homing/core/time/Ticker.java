package dev.homing.core.time;

/**
 * A source of monotonic nanoseconds. Core never reads the system clock: the router injects a real ticker, the
 * benchmark a virtual one, so the same scheduler runs live and in simulated time.
 */
@FunctionalInterface
public interface Ticker {
    long nanos();
}
