package dev.homing.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Waits for SIGINT or SIGTERM, then holds the JVM open until the servers opened after it have been closed: open it
 * first in a try-with-resources, so it is closed last.
 */
final class ShutdownSignal implements AutoCloseable {

    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread hook = new Thread(this::onSignal, "homing-shutdown");
    private final Duration hold;

    /** Holds the JVM up to 30 s for the servers to close. */
    ShutdownSignal() {
        this(Duration.ofSeconds(30));
    }

    /** @param hold the longest the JVM is held open for the servers to close (a drain) */
    ShutdownSignal(Duration hold) {
        this.hold = hold;
        Runtime.getRuntime().addShutdownHook(hook);
    }

    private void onSignal() {
        stop.countDown();
        try {
            closed.await(hold.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void await() throws InterruptedException {
        stop.await();
        System.out.println("homing: shutting down");
    }

    @Override
    public void close() {
        closed.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running and will return now that we are closed
        }
    }
}
