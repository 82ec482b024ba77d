package dev.homing.sim.engine.archfixture;

import java.util.Random;

/** Breaks each of the engine's time and randomness rules once. */
public final class UsesTheWallClock {

    long now() {
        return System.nanoTime();
    }

    void sleep() throws InterruptedException {
        Thread.sleep(1);
    }

    int roll() {
        return new Random().nextInt();
    }
}
