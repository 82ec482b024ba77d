package dev.homing.sim.virtual;

import java.util.function.LongSupplier;

/**
 * Model time in nanoseconds that moves only when its {@link VirtualTimeLoop} moves it; never backwards. Hand it to
 * whatever needs "now" (as a {@link LongSupplier}) so that it reads the simulation's time, not the wall's.
 */
public final class VirtualClock implements LongSupplier {

    private long nanos;

    VirtualClock(long startNanos) {
        this.nanos = startNanos;
    }

    public long nanos() {
        return nanos;
    }

    @Override
    public long getAsLong() {
        return nanos;
    }

    void advanceTo(long t) {
        if (t < nanos) {
            throw new IllegalStateException("virtual time cannot go back from " + nanos + " to " + t);
        }
        nanos = t;
    }
}
