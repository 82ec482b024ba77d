package dev.homing.core.flowcontrol;

import dev.homing.core.framework.scheduling.SchedulingException;

/**
 * What became of an enqueued request, and the host's handle on it: {@link #cancel} when its client leaves while it
 * waits, {@link #end} once an admitted request has ended (in a {@code finally}, however it ended).
 */
public final class Ticket {
    private final FlowController controller;
    private final Item item;
    private final SchedulingException refusal;
    private final boolean atOnce;

    Ticket(FlowController controller, Item item, SchedulingException refusal, boolean atOnce) {
        this.controller = controller;
        this.item = item;
        this.refusal = refusal;
        this.atOnce = atOnce;
    }

    /** Admitted at enqueue: the host places the request now, and no waiter call follows. */
    public boolean admittedAtOnce() {
        return atOnce;
    }

    /** Refused at enqueue (the queues are full, or the router is draining); null otherwise. */
    public SchedulingException refusal() {
        return refusal;
    }

    /**
     * The client left: a waiting request leaves the queue (503 {@code rejected-context-cancelled}, counted, its waiter
     * told). Returns whether it was still waiting; an admitted one is ended by the host as usual.
     */
    public boolean cancel() {
        return controller.cancel(item);
    }

    /** An admitted request ended; idempotent. Does nothing for one that never was admitted. */
    public void end() {
        controller.end(item);
    }

    /** Whether flow control chose this request for eviction. */
    public boolean evicted() {
        return controller.evicted(item);
    }
}
