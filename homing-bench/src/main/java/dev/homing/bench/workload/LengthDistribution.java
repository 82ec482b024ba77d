package dev.homing.bench.workload;

import java.util.random.RandomGenerator;

/**
 * A token length, fixed or drawn as inference-perf draws it: normal with {@code mean} and {@code stdDev}, clipped to
 * {@code [min, max]} and rounded. Written {@code N} or {@code mean:std_dev:min:max} (e.g. {@code 3000:900:1:6000}).
 */
record LengthDistribution(double mean, double stdDev, int min, int max) {

    static LengthDistribution fixed(int n) {
        return new LengthDistribution(n, 0, n, n);
    }

    /** Parses either form; throws {@link IllegalArgumentException} with a reason that does not name the parameter. */
    static LengthDistribution parse(String text, int floor) {
        String[] parts = text.trim().split(":", -1);
        if (parts.length == 1) {
            int n = parseInt(parts[0]);
            if (n < floor) {
                throw new IllegalArgumentException("must be at least " + floor);
            }
            return fixed(n);
        }
        if (parts.length != 4) {
            throw new IllegalArgumentException("expected N or mean:std_dev:min:max");
        }
        double mean = parseDouble(parts[0]);
        double std = parseDouble(parts[1]);
        int min = parseInt(parts[2]);
        int max = parseInt(parts[3]);
        if (min < floor) {
            throw new IllegalArgumentException("min must be at least " + floor);
        }
        if (max < min) {
            throw new IllegalArgumentException("max is below min");
        }
        if (!(std >= 0)) {
            throw new IllegalArgumentException("std_dev must not be negative");
        }
        if (!(mean >= min && mean <= max)) {
            throw new IllegalArgumentException("mean must lie within [min, max]");
        }
        return new LengthDistribution(mean, std, min, max);
    }

    boolean isFixed() {
        return min == max;
    }

    /** A fixed length draws nothing, so fixing one length leaves every other draw of a seed unchanged. */
    int sample(RandomGenerator rng) {
        if (isFixed()) {
            return min;
        }
        double x = mean + stdDev * gaussian(rng);
        return (int) Math.round(Math.max(min, Math.min(max, x)));
    }

    @Override
    public String toString() {
        return isFixed() ? Integer.toString(min) : format(mean) + ":" + format(stdDev) + ":" + min + ":" + max;
    }

    /** Box–Muller from two uniforms: the JDK's own Gaussian may change between releases; a seed's draws must not. */
    private static double gaussian(RandomGenerator rng) {
        double u1 = 1.0 - rng.nextDouble(); // (0, 1]: the log stays finite
        double u2 = rng.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    private static String format(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    private static int parseInt(String s) {
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s + "' is not a whole number");
        }
    }

    private static double parseDouble(String s) {
        try {
            double v = Double.parseDouble(s.trim());
            if (!Double.isFinite(v)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s + "' is not a number");
        }
    }
}
