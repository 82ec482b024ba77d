package dev.homing.core.endpoint;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The load one request puts on one endpoint, from the pick until the request ends. Closing is idempotent, so it can
 * sit in a {@code finally} on every path (success, error, timeout, retry, client disconnect).
 */
public final class Lease implements AutoCloseable {

    private final EndpointLoad load;
    final long sequence;
    final long promptTokens;
    final long totalTokens;
    final long prefillWork;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean reflected = new AtomicBoolean();
    private final AtomicBoolean prefilled = new AtomicBoolean();

    Lease(EndpointLoad load, long sequence, long promptTokens, long totalTokens, long prefillWork) {
        this.load = load;
        this.sequence = sequence;
        this.promptTokens = promptTokens;
        this.totalTokens = totalTokens;
        this.prefillWork = prefillWork;
    }

    /** Marks the request as visible in the endpoint's own metrics; true the first time. */
    boolean markReflected() {
        return reflected.compareAndSet(false, true);
    }

    /** Marks the prompt as prefilled; true the first time. */
    boolean markPrefilled() {
        return prefilled.compareAndSet(false, true);
    }

    /**
     * The endpoint produced the request's first output token: its prompt is no longer waiting to be prefilled.
     * Idempotent; closing the lease implies it.
     */
    public void prefillDone() {
        load.prefillDone(this);
    }

    public boolean isClosed() {
        return closed.get();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            load.release(this);
        }
    }
}
