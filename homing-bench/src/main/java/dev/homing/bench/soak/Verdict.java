package dev.homing.bench.soak;

/**
 * One goal of the soak, judged.
 *
 * @param goal     what it asks, e.g. {@code heap after GC at 10:00 <= 1.1x 2:00}
 * @param observed what the run showed
 */
public record Verdict(String goal, String observed, boolean met) {

    @Override
    public String toString() {
        return (met ? "met     " : "NOT MET ") + goal + ": " + observed;
    }
}
