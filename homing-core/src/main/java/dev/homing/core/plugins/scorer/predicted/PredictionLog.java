package dev.homing.core.plugins.scorer.predicted;

import java.util.Arrays;

/**
 * How far predicted times to first token were from the observed ones: the last {@code capacity} relative errors
 * {@code |predicted − observed| / observed} (a ring, the oldest overwritten), and how many predictions were made in
 * all. Thread-safe.
 */
public final class PredictionLog {

    static final int DEFAULT_CAPACITY = 8192;

    private final double[] errors;
    private final double[] signed;
    private long recorded;

    /**
     * @param observations how many predictions were compared with what happened
     * @param medianError  median of |predicted − observed| / observed over the last ones kept (NaN if none)
     * @param p90Error     90th percentile of the same
     * @param medianBias   median of (predicted − observed) / observed: above 0 when the model predicts too long
     */
    public record Summary(long observations, double medianError, double p90Error, double medianBias) {
    }

    PredictionLog(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be > 0");
        }
        errors = new double[capacity];
        signed = new double[capacity];
    }

    synchronized void record(double predicted, double observed) {
        if (!(observed > 0) || !Double.isFinite(predicted)) {
            return;
        }
        int at = (int) (recorded % errors.length);
        signed[at] = (predicted - observed) / observed;
        errors[at] = Math.abs(signed[at]);
        recorded++;
    }

    /**
     * The median relative error of the last {@code n} predictions (all there are when fewer), NaN when none: how far
     * off the predictor is now, which a long history would hide.
     */
    synchronized double recentMedianError(int n) {
        int kept = (int) Math.min(Math.min(recorded, errors.length), n);
        if (kept == 0) {
            return Double.NaN;
        }
        double[] e = new double[kept];
        for (int i = 0; i < kept; i++) {
            e[i] = errors[(int) ((recorded - 1 - i) % errors.length)];
        }
        // the value rank() would take from the sorted array, found without sorting it (asked at every decision)
        return select(e, Math.max(0, Math.min(kept - 1, (int) Math.ceil(0.5 * kept) - 1)));
    }

    /** The {@code k}-th smallest of {@code a} (0-based), by Hoare's selection; reorders {@code a}. */
    static double select(double[] a, int k) {
        int lo = 0;
        int hi = a.length - 1;
        while (lo < hi) {
            double pivot = a[(lo + hi) >>> 1];
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (Double.compare(a[i], pivot) < 0) {
                    i++;
                }
                while (Double.compare(a[j], pivot) > 0) {
                    j--;
                }
                if (i <= j) {
                    double t = a[i];
                    a[i] = a[j];
                    a[j] = t;
                    i++;
                    j--;
                }
            }
            if (k <= j) {
                hi = j;
            } else if (k >= i) {
                lo = i;
            } else {
                return a[k];
            }
        }
        return a[k];
    }

    synchronized Summary summary() {
        int kept = (int) Math.min(recorded, errors.length);
        if (kept == 0) {
            return new Summary(0, Double.NaN, Double.NaN, Double.NaN);
        }
        double[] e = Arrays.copyOf(errors, kept);
        double[] b = Arrays.copyOf(signed, kept);
        Arrays.sort(e);
        Arrays.sort(b);
        return new Summary(recorded, rank(e, 0.5), rank(e, 0.9), rank(b, 0.5));
    }

    private static double rank(double[] sorted, double q) {
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
