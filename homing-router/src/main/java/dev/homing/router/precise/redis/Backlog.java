package dev.homing.router.precise.redis;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One pod's index writes that did not reach Redis (it was down), in the order they were made, to be sent before the
 * pod's next ones once it is back: without them Redis's copy of the pod would lack removals and clears, and every
 * replica would send requests to blocks the pod no longer holds. A clear makes what came before it moot, so the
 * backlog of a pod that clears holds only what followed. Bounded over all pods by a shared count of arguments: past
 * it the pod's backlog is dropped and marked, and its entries in Redis are cleared before the rest is sent (its
 * blocks are under-claimed until its next events, never over-claimed). The caller holds the backlog's monitor.
 */
final class Backlog {

    /** A step that clears the pod in Redis. */
    static final Object CLEAR = new Object();

    private final ArrayDeque<Object> steps = new ArrayDeque<>();
    private final AtomicLong sharedArgs;
    private final long maxArgs;
    private long args;
    private boolean overflowed;
    private boolean departed;

    /**
     * @param sharedArgs arguments held by every backlog of the index
     * @param maxArgs    their bound
     */
    Backlog(AtomicLong sharedArgs, long maxArgs) {
        this.sharedArgs = sharedArgs;
        this.maxArgs = maxArgs;
    }

    boolean isEmpty() {
        return steps.isEmpty() && !overflowed;
    }

    /** Adds a step: an {@link IndexWrites} or {@link #CLEAR}. */
    void add(Object step) {
        if (step == CLEAR) {
            release();
            overflowed = false;
            steps.add(CLEAR);
            return;
        }
        int n = ((IndexWrites) step).args().size();
        if (sharedArgs.addAndGet(n) > maxArgs) {
            sharedArgs.addAndGet(-n);
            release();
            overflowed = true;
            return;
        }
        args += n;
        steps.add(step);
    }

    /** The pod left the pool: once its backlog is sent, it is forgotten. */
    void departed() {
        departed = true;
    }

    boolean isDeparted() {
        return departed;
    }

    /** Whether steps were dropped: Redis's copy of the pod is to be cleared before the rest is sent. */
    boolean overflowed() {
        return overflowed;
    }

    void clearedRemotely() {
        overflowed = false;
    }

    /** The oldest step, or null. */
    Object peek() {
        return steps.peek();
    }

    /** Drops the oldest step (sent, or refused by Redis). */
    void remove() {
        Object step = steps.poll();
        if (step instanceof IndexWrites w) {
            args -= w.args().size();
            sharedArgs.addAndGet(-w.args().size());
        }
    }

    private void release() {
        sharedArgs.addAndGet(-args);
        args = 0;
        steps.clear();
    }
}
