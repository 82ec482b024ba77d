package dev.homing.router.proxy;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Envoy's retry budget: retries of busy answers (429, 503) under way at once are at most {@code percent} of the
 * requests under way, and never fewer than {@link #MIN_CONCURRENT}. When a whole fleet is overloaded, every pod says
 * so and a retry only adds load: the budget then lets most busy answers through to the client instead of multiplying
 * them. Retries after a pod could not be reached are not counted here: the pod never took the request, and ejection
 * bounds how often that happens.
 *
 * <p>Back-off between attempts is Envoy's too: full jitter, a random wait below {@code 25 ms · 2^(n-1)}, capped at
 * 250 ms, so requests turned away together do not come back together.
 */
final class RetryBudget {

    /** Envoy's {@code retry_budget} defaults. */
    static final double DEFAULT_PERCENT = 20.0;
    static final int MIN_CONCURRENT = 3;
    static final long BASE_MILLIS = 25;
    static final long MAX_MILLIS = 250;

    private final double percent;
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger retrying = new AtomicInteger();

    /** @param percent retries allowed as a share of requests under way, in per cent; 0 for none */
    RetryBudget(double percent) {
        if (!(percent >= 0 && percent <= 100)) {
            throw new IllegalArgumentException("a retry budget is a percentage in [0, 100], got " + percent);
        }
        this.percent = percent;
    }

    /** A request is under way. */
    void started() {
        active.incrementAndGet();
    }

    /** A request ended, giving back the retries it held. */
    void ended(int retriesHeld) {
        active.decrementAndGet();
        if (retriesHeld > 0) {
            retrying.addAndGet(-retriesHeld);
        }
    }

    /** Takes one retry from the budget, if it has one; the request holds it until it ends. */
    boolean tryRetry() {
        if (percent == 0) {
            return false;
        }
        while (true) {
            int r = retrying.get();
            int allowed = Math.max(MIN_CONCURRENT, (int) (active.get() * percent / 100.0));
            if (r >= allowed) {
                return false;
            }
            if (retrying.compareAndSet(r, r + 1)) {
                return true;
            }
        }
    }

    /** The wait before the {@code attempt}-th retry (1 for the first). */
    long backOffMillis(int attempt) {
        long ceiling = Math.min(MAX_MILLIS, BASE_MILLIS << Math.min(Math.max(0, attempt - 1), 10));
        return ThreadLocalRandom.current().nextLong(ceiling + 1);
    }

    /** Requests under way and retries they hold, for tests and metrics. */
    int active() {
        return active.get();
    }

    int retrying() {
        return retrying.get();
    }
}
