package dev.homing.core.framework.flowcontrol;

/** A request flow control dispatched and that has not ended, as eviction policies see it. */
public interface InFlightRequest {

    int priority();

    /** Ticker time it was dispatched. */
    long dispatchedNanos();
}
