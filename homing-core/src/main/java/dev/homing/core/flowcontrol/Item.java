package dev.homing.core.flowcontrol;

import dev.homing.core.framework.flowcontrol.InFlightRequest;
import dev.homing.core.framework.flowcontrol.QueuedRequest;
import dev.homing.core.framework.request.InferenceRequest;


/** A request in flow control, from enqueue to its end; guarded by the controller's lock. */
final class Item implements QueuedRequest, InFlightRequest {
    final InferenceRequest request;
    final long bytes;
    final long enqueueNanos;
    final long ttlNanos;
    final long sequence;
    final Waiter waiter;
    enum State { QUEUED, ADMITTED, ENDED }

    State state = State.QUEUED;
    long dispatchedNanos;
    boolean evicted;

    Item(InferenceRequest request, long bytes, long enqueueNanos, long ttlNanos, long sequence, Waiter waiter) {
        this.request = request;
        this.bytes = bytes;
        this.enqueueNanos = enqueueNanos;
        this.ttlNanos = ttlNanos;
        this.sequence = sequence;
        this.waiter = waiter;
    }

    long deadline() {
        if (ttlNanos <= 0) {
            return Long.MAX_VALUE;
        }
        long d = enqueueNanos + ttlNanos;
        return d < enqueueNanos ? Long.MAX_VALUE : d;
    }

    @Override
    public InferenceRequest request() {
        return request;
    }

    @Override
    public long enqueueNanos() {
        return enqueueNanos;
    }

    @Override
    public long ttlNanos() {
        return ttlNanos;
    }

    @Override
    public long byteSize() {
        return bytes;
    }

    @Override
    public long sequence() {
        return sequence;
    }

    @Override
    public int priority() {
        return request.priority();
    }

    @Override
    public long dispatchedNanos() {
        return dispatchedNanos;
    }
}
