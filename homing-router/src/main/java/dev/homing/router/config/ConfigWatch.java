package dev.homing.router.config;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Looks at the config file for changes every interval, on one daemon thread that runs from start to close. */
public final class ConfigWatch implements AutoCloseable {

    private final Duration interval;
    private final Runnable reload;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "homing-config-reload");
        t.setDaemon(true);
        return t;
    });

    /** @param reload reads the file and applies what changed; it must not throw */
    public ConfigWatch(Duration interval, Runnable reload) {
        this.interval = interval;
        this.reload = reload;
    }

    public void start() {
        timer.scheduleWithFixedDelay(reload, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
