package dev.homing.core.archfixture;

import java.time.Clock;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/** Keeps the time and randomness rules: what core may do with an injected clock or generator, or a seed. */
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
}
