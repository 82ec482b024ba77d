package dev.homing.router.config;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Looks at a file for changes every interval (the config file; the endpoints file), on one daemon thread that runs
 * from start to close.
 */
public final class ConfigWatch implements AutoCloseable {

    /** Longest wait in {@link #close()} for a reload in progress: it may not heed the interrupt (a plugin's build). */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final Duration interval;
    private final Runnable reload;
    private final ScheduledExecutorService timer;

    /** @param reload reads the config file and applies what changed; it must not throw */
    public ConfigWatch(Duration interval, Runnable reload) {
        this("homing-config-reload", interval, reload);
    }

    /**
     * @param threadName names the thread, which a thread dump shows
     * @param reload     reads the file and applies what changed; it must not throw
     */
    public ConfigWatch(String threadName, Duration interval, Runnable reload) {
        this.interval = interval;
        this.reload = reload;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    public void start() {
        timer.scheduleWithFixedDelay(reload, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Stops looking, and waits (at most {@link #CLOSE_WAIT}) for a reload in progress to end: the parts closed after
     * this one are those a reload uses (the precise subscribers it rewires, the Redis its indexes live in).
     */
    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(CLOSE_WAIT.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
