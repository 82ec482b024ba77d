package dev.homing.router.upstream;

import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Idle keep-alive connections, per pod address. Bounded: at most {@code maxIdlePerAddress} idle connections an address
 * (one more is closed on its return), and one idle longer than {@code idleTimeoutNanos} is closed rather than used,
 * because the pod has closed it or soon will (vLLM's server closes idle connections after {@code
 * VLLM_HTTP_TIMEOUT_KEEP_ALIVE}, 5 s by default). The most recently returned connection is used first, so a burst's
 * extra connections age at the bottom of the stack and are closed from there on later returns. Addresses that leave
 * the pool's view ({@link #evict}) close theirs.
 */
final class ConnectionPool implements AutoCloseable {

    private static final class Idle {
        final Deque<Http1Connection> stack = new ConcurrentLinkedDeque<>();
        final AtomicInteger size = new AtomicInteger();
    }

    private final Map<String, Idle> idle = new ConcurrentHashMap<>();
    private final int maxIdlePerAddress;
    private final long idleTimeoutNanos;
    private final LongSupplier nanos;
    private volatile boolean closed;

    ConnectionPool(int maxIdlePerAddress, long idleTimeoutNanos, LongSupplier nanos) {
        this.maxIdlePerAddress = maxIdlePerAddress;
        this.idleTimeoutNanos = idleTimeoutNanos;
        this.nanos = nanos;
    }

    /** An idle connection to {@code address} young enough to use, or null. */
    Http1Connection borrow(String address) {
        Idle i = idle.get(address);
        if (i == null) {
            return null;
        }
        long now = nanos.getAsLong();
        for (Http1Connection c; (c = i.stack.pollLast()) != null; ) {
            i.size.decrementAndGet();
            if (now - c.idleSince() < idleTimeoutNanos && c.isOpen()) {
                return c;
            }
            c.close();
        }
        return null;
    }

    /** A connection whose response was read to its end: kept for the next request to its address, or closed. */
    void release(Http1Connection c) {
        if (closed || maxIdlePerAddress <= 0) {
            c.close();
            return;
        }
        long now = nanos.getAsLong();
        c.idleFrom(now);
        Idle i = idle.computeIfAbsent(c.address(), a -> new Idle());
        // the oldest idle one, at the bottom, is closed once it has outlived the timeout
        Http1Connection oldest = i.stack.peekFirst();
        if (oldest != null && now - oldest.idleSince() >= idleTimeoutNanos && i.stack.removeFirstOccurrence(oldest)) {
            i.size.decrementAndGet();
            oldest.close();
        }
        if (i.size.incrementAndGet() > maxIdlePerAddress) {
            i.size.decrementAndGet();
            c.close();
            return;
        }
        i.stack.offerLast(c);
        if (closed && i.stack.remove(c)) {
            c.close();
        }
    }

    /** Closes the idle connections to an address no longer served. */
    void evict(String address) {
        Idle i = idle.remove(address);
        if (i != null) {
            drain(i);
        }
    }

    /** Idle connections to {@code address} now. */
    int idleCount(String address) {
        Idle i = idle.get(address);
        return i == null ? 0 : i.size.get();
    }

    @Override
    public void close() {
        closed = true;
        idle.values().forEach(ConnectionPool::drain);
        idle.clear();
    }

    private static void drain(Idle i) {
        for (Http1Connection c; (c = i.stack.pollFirst()) != null; ) {
            i.size.decrementAndGet();
            c.close();
        }
    }
}
