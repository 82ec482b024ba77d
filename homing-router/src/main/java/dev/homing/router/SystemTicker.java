package dev.homing.router;

import dev.homing.core.time.Ticker;

/** The live ticker: {@link System#nanoTime()}. The router is the only place that reads the real clock for core. */
public final class SystemTicker implements Ticker {

    public static final SystemTicker INSTANCE = new SystemTicker();

    private SystemTicker() {
    }

    @Override
    public long nanos() {
        return System.nanoTime();
    }
}
