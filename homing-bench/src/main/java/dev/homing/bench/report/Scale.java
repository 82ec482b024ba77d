package dev.homing.bench.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;

/**
 * One axis of a chart: maps data values onto [0, 1], linearly from zero or logarithmically, with round ticks to label
 * it.
 */
record Scale(double min, double max, boolean log, List<Double> ticks) {

    /** Values spanning more than this factor get a log axis, so the low end is not squashed flat. */
    static final double WIDE = 20;

    Scale {
        ticks = List.copyOf(ticks);
    }

    /** A linear axis from 0 to a round number at or above {@code max} (1 when there is nothing to show). */
    static Scale fromZero(double max) {
        if (!(max > 0) || !Double.isFinite(max)) {
            max = 1;
        }
        double step = niceStep(max / 5);
        int n = (int) Math.ceil(max / step - 1e-9);
        List<Double> ticks = new ArrayList<>();
        for (int i = 0; i <= n; i++) {
            ticks.add(round(i * step));
        }
        return new Scale(0, ticks.getLast(), false, ticks);
    }

    /** A log axis over whole decades around [lo, hi], both positive; 2 and 5 ticks too when it spans few decades. */
    static Scale log(double lo, double hi) {
        int from = (int) Math.floor(Math.log10(lo) + 1e-9);
        int to = (int) Math.ceil(Math.log10(hi) - 1e-9);
        if (to <= from) {
            to = from + 1;
        }
        List<Double> ticks = new ArrayList<>();
        for (int k = from; k <= to; k++) {
            ticks.add(round(Math.pow(10, k)));
            if (to - from <= 2 && k < to) {
                ticks.add(round(2 * Math.pow(10, k)));
                ticks.add(round(5 * Math.pow(10, k)));
            }
        }
        return new Scale(Math.pow(10, from), Math.pow(10, to), true, ticks);
    }

    /** Log when the finite values are all positive and span a wide range, else linear from zero. */
    static Scale auto(double... values) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        boolean positive = true;
        for (double v : values) {
            if (!Double.isFinite(v)) {
                continue;
            }
            positive &= v > 0;
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        return positive && hi > 0 && hi / lo >= WIDE ? log(lo, hi) : fromZero(hi);
    }

    /** Where a value falls between the ends of the axis: 0 at {@link #min}, 1 at {@link #max}. */
    double fraction(double v) {
        if (log) {
            return (Math.log10(v) - Math.log10(min)) / (Math.log10(max) - Math.log10(min));
        }
        return (v - min) / (max - min);
    }

    /** Whether a value can be drawn on this axis (a log axis has no place for zero). */
    boolean shows(double v) {
        return Double.isFinite(v) && (!log || v > 0);
    }

    /** A tick label: three significant digits at most, thousands as k. */
    static String label(double v) {
        if (v == 0) {
            return "0";
        }
        if (Math.abs(v) >= 10_000) {
            return plain(v / 1000) + "k";
        }
        return plain(v);
    }

    private static String plain(double v) {
        return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    private static double niceStep(double raw) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double norm = raw / magnitude;
        double nice = norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 ? 2.5 : norm <= 5 ? 5 : 10;
        return nice * magnitude;
    }

    private static double round(double v) {
        return new BigDecimal(v).round(new MathContext(12)).doubleValue();
    }
}
