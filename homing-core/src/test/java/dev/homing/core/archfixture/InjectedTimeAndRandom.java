package dev.homing.core.archfixture;

import java.time.Clock;
import java.time.Instant;
import java.util.Collections;
import java.util.GregorianCalendar;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * Keeps the time and randomness rules: what core may do with an injected clock or generator, or a seed; a calendar
 * of a given date; a pool whose constructor takes a TimeUnit (a keep-alive, no wait).
 */
public final class InjectedTimeAndRandom {

    Instant now(Clock injected) {
        return Instant.now(injected);
    }

    long nanos(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis) + TimeUnit.NANOSECONDS.convert(millis, TimeUnit.MILLISECONDS);
    }

    RandomGenerator perCycle(long seed) {
        return new SplittableRandom(seed);
    }

    void shuffle(List<String> list, RandomGenerator injected) {
        Collections.shuffle(list, injected);
    }

    long epochDay() {
        return new GregorianCalendar(2024, 0, 1).getTimeInMillis();
    }

    ThreadPoolExecutor pool() {
        return new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
    }
}
