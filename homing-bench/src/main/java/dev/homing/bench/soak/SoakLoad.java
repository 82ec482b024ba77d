package dev.homing.bench.soak;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak's load: {@code concurrency} clients, each a virtual thread with its own connection, sending the mix's
 * requests one after another for as long as the load runs (a closed loop), and, with a rate, starting them no faster
 * than that many a second in all (a start that falls behind goes at once, without catching up in a burst). Stopping
 * lets each client finish the request it is in, so every request sent gets its outcome counted.
 */
final class SoakLoad {

    private final InetSocketAddress router;
    private final SoakMix mix;
    private final int concurrency;
    private final long periodNanos;
    private final int readTimeoutMillis;
    private final Tally tally;
    private final AtomicLong next = new AtomicLong();
    private final List<Thread> clients = new ArrayList<>();
    private final Object pace = new Object();
    private long nextStart;
    private volatile boolean stopped;

    /** @param rate starts a second in all, or 0 for none but the concurrency */
    SoakLoad(InetSocketAddress router, SoakMix mix, int concurrency, double rate, Duration readTimeout, Tally tally) {
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
        }
        if (rate < 0 || Double.isNaN(rate)) {
            throw new IllegalArgumentException("rate must be positive, got " + rate);
        }
        this.router = router;
        this.mix = mix;
        this.concurrency = concurrency;
        this.periodNanos = rate == 0 ? 0 : (long) (1e9 / rate);
        this.readTimeoutMillis = Math.toIntExact(readTimeout.toMillis());
        this.tally = tally;
    }

    void start() {
        nextStart = System.nanoTime();
        for (int i = 0; i < concurrency; i++) {
            clients.add(Thread.ofVirtual().name("soak-client-" + i).start(this::client));
        }
    }

    /** No request is sent after this; those under way go on to their end. */
    void stop() {
        stopped = true;
        synchronized (pace) {
            pace.notifyAll();
        }
    }

    /** Waits for every client to finish its last request; whether all did within {@code timeout}. */
    boolean awaitStopped(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread t : clients) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !t.join(Duration.ofNanos(left))) {
                return false;
            }
        }
        return true;
    }

    private void client() {
        try (SoakClient client = new SoakClient(router, readTimeoutMillis)) {
            while (!stopped) {
                if (!awaitTurn()) {
                    return;
                }
                SoakRequest r = mix.get(next.getAndIncrement());
                tally.sent();
                tally.add(client.exchange(r));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits for this start's time under the rate; false when the load stopped meanwhile. */
    private boolean awaitTurn() throws InterruptedException {
        if (periodNanos == 0) {
            return !stopped;
        }
        synchronized (pace) {
            long due = Math.max(System.nanoTime(), nextStart);
            nextStart = due + periodNanos;
            for (long wait = due - System.nanoTime(); wait > 0 && !stopped; wait = due - System.nanoTime()) {
                TimeUnit.NANOSECONDS.timedWait(pace, wait);
            }
        }
        return !stopped;
    }
}
