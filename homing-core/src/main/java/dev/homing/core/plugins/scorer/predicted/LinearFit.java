package dev.homing.core.plugins.scorer.predicted;

import java.util.Arrays;

/**
 * A linear model {@code y ≈ θ·x} fitted online by exponentially weighted least squares: it keeps {@code A = Σ λ^age
 * x xᵀ} and {@code b = Σ λ^age x y} (O(n²) per observation, n the features) and solves {@code (A + δI) θ = b} when
 * asked after a change, so the oldest observations weigh {@code λ^age} and the fit follows a pod whose speed changes.
 * Every coefficient but the first (the intercept) is kept {@code ≥ 0}: each feature is work that can only delay, and
 * correlated features (tokens and their attention) would otherwise trade signs on noise. A feature whose coefficient
 * would be negative is left out and the rest solved again (an active set, at most n solves).
 *
 * <p>Why not recursive least squares: with forgetting, RLS's covariance grows without bound along directions the data
 * stops exciting (a feature that stays constant for a while), rounding then breaks its symmetry, and one observation
 * sends θ off by orders of magnitude; the normal equations with a small ridge {@code δ} (relative to A's trace) are
 * bounded by construction. Not thread-safe: its owner serialises updates and reads.
 */
final class LinearFit {

    /** Ridge as a fraction of A's mean diagonal: enough to keep a constant feature from making A singular. */
    private static final double RIDGE = 1e-6;

    private final int n;
    private final double forgetting;
    private final double[][] a;
    private final double[] b;
    private final double[] theta;
    private long observations;
    private boolean solved = true;

    /**
     * @param features   the length of x
     * @param forgetting λ in (0, 1]: 1 remembers everything, 0.999 about the last 1,000 observations
     */
    LinearFit(int features, double forgetting) {
        if (features < 1 || !(forgetting > 0 && forgetting <= 1)) {
            throw new IllegalArgumentException("features >= 1, forgetting in (0, 1]");
        }
        this.n = features;
        this.forgetting = forgetting;
        this.a = new double[n][n];
        this.b = new double[n];
        this.theta = new double[n];
    }

    void observe(double[] x, double y) {
        if (x.length != n || !Double.isFinite(y) || !finite(x)) {
            return;
        }
        for (int i = 0; i < n; i++) {
            b[i] = forgetting * b[i] + x[i] * y;
            for (int j = 0; j < n; j++) {
                a[i][j] = forgetting * a[i][j] + x[i] * x[j];
            }
        }
        observations++;
        solved = false;
    }

    double predict(double[] x) {
        double[] t = coefficients();
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += t[i] * x[i];
        }
        return s;
    }

    double coefficient(int i) {
        return coefficients()[i];
    }

    long observations() {
        return observations;
    }

    private double[] coefficients() {
        if (!solved) {
            solve();
            solved = true;
        }
        return theta;
    }

    /** The ridge solution over the features still active, dropping one whose coefficient comes out negative. */
    private void solve() {
        boolean[] active = new boolean[n];
        Arrays.fill(active, true);
        double trace = 0;
        for (int i = 0; i < n; i++) {
            trace += a[i][i];
        }
        double ridge = RIDGE * Math.max(trace / n, Double.MIN_NORMAL) + 1e-12;
        for (int round = 0; round < n; round++) {
            double[] t = solve(active, ridge);
            if (t == null) {
                Arrays.fill(theta, 0);
                return;
            }
            int worst = -1;
            for (int i = 1; i < n; i++) {
                if (active[i] && t[i] < 0 && (worst < 0 || t[i] < t[worst])) {
                    worst = i;
                }
            }
            if (worst < 0) {
                System.arraycopy(t, 0, theta, 0, n);
                return;
            }
            active[worst] = false;
        }
        Arrays.fill(theta, 0);
    }

    /** Cholesky solve of {@code (A + ridge I) θ = b} restricted to the active features (the others 0). */
    private double[] solve(boolean[] active, double ridge) {
        int[] idx = new int[n];
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (active[i]) {
                idx[m++] = i;
            }
        }
        double[][] l = new double[m][m];
        for (int r = 0; r < m; r++) {
            for (int c = 0; c <= r; c++) {
                double s = a[idx[r]][idx[c]] + (r == c ? ridge : 0);
                for (int k = 0; k < c; k++) {
                    s -= l[r][k] * l[c][k];
                }
                if (r == c) {
                    if (!(s > 0)) {
                        return null;
                    }
                    l[r][r] = Math.sqrt(s);
                } else {
                    l[r][c] = s / l[c][c];
                }
            }
        }
        double[] z = new double[m];
        for (int r = 0; r < m; r++) {
            double s = b[idx[r]];
            for (int k = 0; k < r; k++) {
                s -= l[r][k] * z[k];
            }
            z[r] = s / l[r][r];
        }
        double[] out = new double[n];
        for (int r = m - 1; r >= 0; r--) {
            double s = z[r];
            for (int k = r + 1; k < m; k++) {
                s -= l[k][r] * out[idx[k]];
            }
            out[idx[r]] = s / l[r][r];
        }
        return finite(out) ? out : null;
    }

    private static boolean finite(double[] v) {
        for (double d : v) {
            if (!Double.isFinite(d)) {
                return false;
            }
        }
        return true;
    }
}
