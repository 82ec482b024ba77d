package dev.homing.bench.workload;

import java.util.random.RandomGenerator;

/**
 * Draws from the continuous distributions the workloads need, computed here from uniforms so a seed's draws never
 * change with the JDK (its own Gaussian and its {@code RandomGenerator} helpers may).
 */
final class RandomDraws {

    private RandomDraws() {
    }

    /** Standard normal, Box–Muller from two uniforms. */
    static double gaussian(RandomGenerator rng) {
        double u1 = 1.0 - rng.nextDouble(); // (0, 1]: the log stays finite
        double u2 = rng.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    /** e^(mu + sigma Z): lognormal with median e^mu. */
    static double lognormal(RandomGenerator rng, double mu, double sigma) {
        return Math.exp(mu + sigma * gaussian(rng));
    }

    /**
     * Gamma with the given shape and mean 1 (scale 1/shape): Marsaglia and Tsang's method, with the
     * {@code U^(1/shape)} boost for shapes below 1. Its coefficient of variation is {@code 1/sqrt(shape)}.
     */
    static double gammaMeanOne(RandomGenerator rng, double shape) {
        if (!(shape > 0) || !Double.isFinite(shape)) {
            throw new IllegalArgumentException("gamma shape must be a positive number, got " + shape);
        }
        double boost = 1;
        double k = shape;
        if (k < 1) {
            boost = Math.pow(1.0 - rng.nextDouble(), 1 / k); // (0, 1]
            k += 1;
        }
        double d = k - 1.0 / 3;
        double c = 1 / Math.sqrt(9 * d);
        while (true) {
            double x = gaussian(rng);
            double v = 1 + c * x;
            if (v <= 0) {
                continue;
            }
            v = v * v * v;
            double u = 1.0 - rng.nextDouble();
            if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) {
                return d * v * boost / shape;
            }
        }
    }

    /** Geometric on 1, 2, 3, ... with the given mean (at least 1): the count of trials up to the first success. */
    static int geometric(RandomGenerator rng, double mean) {
        if (mean <= 1) {
            return 1;
        }
        double p = 1 / mean;
        double u = 1.0 - rng.nextDouble(); // (0, 1]
        double n = Math.floor(Math.log(u) / Math.log(1 - p)) + 1;
        return (int) Math.min(Integer.MAX_VALUE, n);
    }
}
