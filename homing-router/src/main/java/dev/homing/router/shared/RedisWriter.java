package dev.homing.router.shared;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Redis writes made where nothing may wait (under the decision lock): queued, bounded, and run one at a time by one
 * background thread, in order. When the queue is full (Redis slower than the picks), a write is dropped and counted
 * as a fallback: what it carried stays in this replica's local state only.
 */
public final class RedisWriter implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(RedisWriter.class.getName());

    private final SharedRedis redis;
    private final BlockingQueue<Runnable> queue;
    private final Thread thread;
    /** The writer's thread only. */
    private boolean failureLogged;

    /** @param name the thread's name */
    public RedisWriter(SharedRedis redis, int capacity, String name) {
        this.redis = redis;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /**
     * Queues a write; never waits.
     *
     * @return false when the queue was full and the write dropped (and counted as a fallback)
     */
    public boolean submit(Runnable write) {
        if (queue.offer(write)) {
            return true;
        }
        redis.fellBack();
        return false;
    }

    /** Writes queued and not yet run. */
    public int pending() {
        return queue.size();
    }

    private void run() {
        while (!Thread.currentThread().isInterrupted()) {
            Runnable write;
            try {
                write = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                write.run();
            } catch (RuntimeException e) {
                // the thread goes on with the next write whatever this one threw; said once, not per write
                LOG.log(failureLogged ? System.Logger.Level.DEBUG : System.Logger.Level.WARNING,
                        "a background Redis write failed; later failures are logged at DEBUG", e);
                failureLogged = true;
            }
        }
    }

    @Override
    public void close() {
        thread.interrupt();
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
