package dev.homing.bench.soak;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The soak's faults, on a thread of their own: every {@code every} one pod killed hard and started again
 * {@code down} later, on the same port, the pods taken in turn from one the seed picks. Only kills whose restart
 * begins before the load ends are made, so that the fleet is whole when the router comes to rest.
 */
final class Faults {

    private final Fleet fleet;
    private final long everyNanos;
    private final long downNanos;
    private final long untilNanos;
    private final int first;
    private final List<FaultEvent> events = new ArrayList<>();
    private Thread thread;
    private long t0;

    Faults(Fleet fleet, Duration every, Duration down, Duration until, long seed) {
        this.fleet = fleet;
        this.everyNanos = every.toNanos();
        this.downNanos = down.toNanos();
        this.untilNanos = until.toNanos();
        this.first = new SplittableRandom(seed).nextInt(fleet.names().size());
    }

    /** The kills planned: at k x every, for every k whose restart begins before the end. */
    static int planned(Duration every, Duration down, Duration until) {
        if (every.isZero() || every.isNegative()) {
            return 0;
        }
        long n = 0;
        while ((n + 1) * every.toNanos() + down.toNanos() < until.toNanos()) {
            n++;
        }
        return Math.toIntExact(n);
    }

    void start(long t0) {
        this.t0 = t0;
        int kills = planned(Duration.ofNanos(everyNanos), Duration.ofNanos(downNanos), Duration.ofNanos(untilNanos));
        thread = Thread.ofVirtual().name("soak-faults").start(() -> {
            try {
                for (int k = 1; k <= kills; k++) {
                    int pod = (first + k - 1) % fleet.names().size();
                    sleepUntil(k * everyNanos);
                    fault(pod, true);
                    sleepUntil(k * everyNanos + downNanos);
                    fault(pod, false);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private void fault(int pod, boolean kill) throws InterruptedException {
        String name = fleet.names().get(pod);
        long began = System.nanoTime();
        try {
            if (kill) {
                fleet.kill(pod);
                record(name, "killed");
            } else {
                fleet.restart(pod);
                record(name, String.format("restarted, serving after %.1f s", (System.nanoTime() - began) / 1e9));
            }
        } catch (java.io.IOException | RuntimeException e) {
            record(name, (kill ? "kill failed: " : "restart failed: ") + e.getMessage());
        }
    }

    private synchronized void record(String pod, String what) {
        events.add(new FaultEvent((System.nanoTime() - t0) / 1_000_000, pod, what));
    }

    private void sleepUntil(long fromStart) throws InterruptedException {
        long wait = t0 + fromStart - System.nanoTime();
        if (wait > 0) {
            Thread.sleep(Duration.ofNanos(wait));
        }
    }

    /** Waits for the last restart; whether it came within {@code timeout} (else the thread is interrupted). */
    boolean awaitDone(Duration timeout) throws InterruptedException {
        if (thread == null) {
            return true;
        }
        if (!thread.join(timeout)) {
            thread.interrupt();
            return false;
        }
        return true;
    }

    /** What happened after {@code fromMillis} up to {@code toMillis} from the start. */
    synchronized List<FaultEvent> between(long fromMillis, long toMillis) {
        return events.stream().filter(e -> e.atMillis() > fromMillis && e.atMillis() <= toMillis).toList();
    }

    synchronized List<FaultEvent> all() {
        return List.copyOf(events);
    }
}
