package dev.homing.core.plugins;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.random.RandomGenerator;

/**
 * A random generator that returns the numbers a test scripts, so a test can compute the outcome by hand. Only
 * {@code nextDouble()} and {@code nextInt(bound)} are scripted; anything else, or running out, fails the test.
 */
public final class ScriptedRandom implements RandomGenerator {

    private final Deque<Double> doubles = new ArrayDeque<>();
    private final Deque<Integer> ints = new ArrayDeque<>();

    public ScriptedRandom withDoubles(double... values) {
        for (double v : values) {
            doubles.add(v);
        }
        return this;
    }

    public ScriptedRandom withInts(int... values) {
        for (int v : values) {
            ints.add(v);
        }
        return this;
    }

    public boolean exhausted() {
        return doubles.isEmpty() && ints.isEmpty();
    }

    @Override
    public double nextDouble() {
        if (doubles.isEmpty()) {
            throw new AssertionError("unscripted nextDouble()");
        }
        return doubles.poll();
    }

    @Override
    public int nextInt(int bound) {
        if (ints.isEmpty()) {
            throw new AssertionError("unscripted nextInt(" + bound + ")");
        }
        int v = ints.poll();
        if (v < 0 || v >= bound) {
            throw new AssertionError("scripted " + v + " outside [0, " + bound + ")");
        }
        return v;
    }

    @Override
    public long nextLong() {
        throw new AssertionError("unscripted nextLong()");
    }
}
