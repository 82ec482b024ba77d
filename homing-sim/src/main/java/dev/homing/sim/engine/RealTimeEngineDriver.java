package dev.homing.sim.engine;

import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Runs an {@link Engine} against a real clock on one platform thread: it sleeps until the engine's next event or until
 * a submission, abort or close wakes it, then advances the engine to the clock's time. Observers run on that thread,
 * under the lock that guards the engine, so they must only hand results over (e.g. to a queue).
 *
 * <p>The engine's timeline is exact whatever the thread's wake-up latency: a late wake-up only delays delivery.
 */
public final class RealTimeEngineDriver implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(RealTimeEngineDriver.class.getName());

    private final Engine engine;
    private final LongSupplier nanoTime;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wakeUp = lock.newCondition();
    private final Thread thread;
    private boolean closed;

    /**
     * @param nanoTime the clock, in nanoseconds of a monotonic source ({@code System::nanoTime} in production)
     */
    public RealTimeEngineDriver(Engine engine, LongSupplier nanoTime, String threadName) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.thread = Thread.ofPlatform().name(threadName).daemon().unstarted(this::run);
    }

    public RealTimeEngineDriver start() {
        thread.start();
        return this;
    }

    /** The driver's clock, for callers that time their own side (e.g. metrics) on the same scale. */
    public long nanoTime() {
        return nanoTime.getAsLong();
    }

    /** Submits at {@code submitNanos} (from {@link #nanoTime()}); see {@link Engine#submit}. */
    public RequestHandle submit(SimRequest request, long submitNanos, RequestObserver observer) {
        lock.lock();
        try {
            ensureOpen();
            RequestHandle handle = engine.submit(request, submitNanos, observer);
            wakeUp.signal();
            return handle;
        } finally {
            lock.unlock();
        }
    }

    public RequestHandle submit(SimRequest request, RequestObserver observer) {
        return submit(request, nanoTime.getAsLong(), observer);
    }

    /** See {@link Engine#abort}; a no-op after close. */
    public boolean abort(RequestHandle handle) {
        lock.lock();
        try {
            if (closed) {
                return false;
            }
            engine.advanceTo(nanoTime.getAsLong());
            boolean aborted = engine.abort(handle);
            wakeUp.signal();
            return aborted;
        } finally {
            lock.unlock();
        }
    }

    public EngineStats stats() {
        lock.lock();
        try {
            return engine.stats();
        } finally {
            lock.unlock();
        }
    }

    public boolean resetPrefixCache() {
        lock.lock();
        try {
            return engine.resetPrefixCache();
        } finally {
            lock.unlock();
        }
    }

    /** Stops the thread; requests still in flight get no further callbacks. */
    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            wakeUp.signal();
        } finally {
            lock.unlock();
        }
        if (thread.isAlive() && Thread.currentThread() != thread) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        lock.lock();
        try {
            while (!closed) {
                try {
                    engine.advanceTo(nanoTime.getAsLong());
                } catch (RuntimeException e) {
                    // The engine's state is suspect now; stopping beats spinning on the same failure.
                    LOG.log(Level.ERROR, "engine step failed; the engine driver stops", e);
                    closed = true;
                    break;
                }
                long next = engine.nextEventNanos();
                if (next == Long.MAX_VALUE) {
                    wakeUp.await();
                } else {
                    long wait = next - nanoTime.getAsLong();
                    if (wait > 0) {
                        wakeUp.awaitNanos(wait);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the engine driver is closed");
        }
    }
}
