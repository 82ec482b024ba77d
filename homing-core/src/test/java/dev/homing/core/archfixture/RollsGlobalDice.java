package dev.homing.core.archfixture;

import java.security.SecureRandom;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/** Breaks "no global randomness": global generators, self-seeded ones, and java.util.Random even when seeded. */
public final class RollsGlobalDice {

    double math() {
        return Math.random();
    }

    int threadLocal() {
        return ThreadLocalRandom.current().nextInt();
    }

    Object generators() {
        return new Object[] {new Random(42), new SecureRandom(), new SplittableRandom(), RandomGenerator.getDefault(),
                UUID.randomUUID()};
    }

    void shuffle(List<String> list) {
        Collections.shuffle(list);
    }
}
