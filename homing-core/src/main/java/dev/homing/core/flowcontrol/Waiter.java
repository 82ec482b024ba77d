package dev.homing.core.flowcontrol;

import dev.homing.core.framework.scheduling.SchedulingException;

/**
 * What the host does when flow control has decided a queued request. Called outside the controller's lock, on the
 * thread that ran the dispatch cycle; exactly one of {@link #admitted} and {@link #refused} is called, once.
 */
public interface Waiter {

    /**
     * The request may go: the host places it now, on this thread, before returning, so that the load it adds is
     * counted before the next dispatch cycle reads the pool's saturation.
     */
    void admitted();

    /** The request leaves the queue without being dispatched: answer {@code why}. */
    void refused(SchedulingException why);

    /**
     * A dispatched request is evicted for a more important waiting one: the host stops it (answers 429,
     * {@code evicted}, if nothing was answered yet) and then ends its ticket. Called at most once.
     */
    default void evict() {
    }
}
