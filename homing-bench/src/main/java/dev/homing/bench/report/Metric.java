package dev.homing.bench.report;

import dev.homing.bench.result.Summary;
import java.util.Locale;

/**
 * A column of the summary tables: how to read it off a summary, how to print it, and which way is better. The terminal
 * and HTML tables share these so they never disagree on what "best" means.
 */
public enum Metric {
    REQUESTS("requests", Better.NONE, "%.0f") {
        @Override
        double value(Summary s, double bound) {
            return s.requests();
        }
    },
    TTFT_P50("TTFT p50 (s)", Better.LOWER, "%.3f") {
        @Override
        double value(Summary s, double bound) {
            return s.ttftP50();
        }
    },
    TTFT_P90("TTFT p90 (s)", Better.LOWER, "%.3f") {
        @Override
        double value(Summary s, double bound) {
            return s.ttftP90();
        }
    },
    TTFT_P99("TTFT p99 (s)", Better.LOWER, "%.3f") {
        @Override
        double value(Summary s, double bound) {
            return s.ttftP99();
        }
    },
    ITL_MEAN("ITL mean (ms)", Better.LOWER, "%.2f") {
        @Override
        double value(Summary s, double bound) {
            return s.itlMean() * 1e3;
        }
    },
    OUTPUT_TPS("output tok/s", Better.HIGHER, "%.1f") {
        @Override
        double value(Summary s, double bound) {
            return s.outputTokensPerSecond();
        }
    },
    HIT_RATE("hit rate", Better.HIGHER, "%.1f%%") {
        @Override
        double value(Summary s, double bound) {
            return s.hitRate();
        }

        @Override
        public String format(double v) {
            return super.format(v * 100);
        }
    },
    HIT_VS_BOUND("hit rate / bound", Better.HIGHER, "%.2f") {
        @Override
        double value(Summary s, double bound) {
            return s.hitRate() / bound;
        }
    },
    ERRORS("errors", Better.LOWER, "%.0f") {
        @Override
        double value(Summary s, double bound) {
            return s.requests() - s.served();
        }
    };

    /** Which way a column improves. */
    public enum Better { LOWER, HIGHER, NONE }

    private final String label;
    private final Better better;
    private final String format;

    Metric(String label, Better better, String format) {
        this.label = label;
        this.better = better;
        this.format = format;
    }

    /** The value in this column for a summary; {@code bound} is the workload's hit-rate bound (NaN when unknown). */
    abstract double value(Summary s, double bound);

    public String label() {
        return label;
    }

    public Better better() {
        return better;
    }

    /** The printed value; "-" when there is none (nothing served, no bound). */
    public String format(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, format, v) : "-";
    }

    /**
     * Which of the values are best. Nothing is marked when fewer than two values are known or all are equal, where
     * a mark would only be noise; ties at the best are all marked. Values compare as printed, so two cells that read
     * the same are never told apart.
     */
    public boolean[] best(double[] values) {
        boolean[] marks = new boolean[values.length];
        if (better == Better.NONE) {
            return marks;
        }
        double[] shown = new double[values.length];
        double best = Double.NaN;
        double worst = Double.NaN;
        int known = 0;
        for (int i = 0; i < values.length; i++) {
            shown[i] = Double.isFinite(values[i]) ? Double.parseDouble(format(values[i]).replace("%", "")) : Double.NaN;
            if (Double.isNaN(shown[i])) {
                continue;
            }
            known++;
            if (Double.isNaN(best) || better(shown[i], best)) {
                best = shown[i];
            }
            if (Double.isNaN(worst) || better(worst, shown[i])) {
                worst = shown[i];
            }
        }
        if (known < 2 || best == worst) {
            return marks;
        }
        for (int i = 0; i < values.length; i++) {
            marks[i] = shown[i] == best;
        }
        return marks;
    }

    private boolean better(double a, double b) {
        return better == Better.LOWER ? a < b : a > b;
    }
}
