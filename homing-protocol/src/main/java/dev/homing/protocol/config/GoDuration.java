package dev.homing.protocol.config;

import java.time.Duration;

/**
 * Durations written the way Go's {@code time.ParseDuration} reads them ({@code 2s}, {@code 500ms}, {@code 1m30s},
 * {@code 1.5h}): llm-d configs and llm-d-inference-sim flags use this form.
 */
public final class GoDuration {

    private GoDuration() {
    }

    public static Duration parse(String text) {
        String s = text.strip();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty duration");
        }
        boolean negative = false;
        int i = 0;
        if (s.charAt(0) == '-' || s.charAt(0) == '+') {
            negative = s.charAt(0) == '-';
            i = 1;
        }
        if (s.substring(i).equals("0")) {
            return Duration.ZERO;
        }
        double nanos = 0;
        boolean any = false;
        while (i < s.length()) {
            int start = i;
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            if (start == i) {
                throw new IllegalArgumentException("invalid duration '" + text + "': expected a number at " + start);
            }
            double value;
            try {
                value = Double.parseDouble(s.substring(start, i));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("invalid duration '" + text + "'");
            }
            int unitStart = i;
            while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
                i++;
            }
            String unit = s.substring(unitStart, i);
            nanos += value * switch (unit) {
                case "ns" -> 1.0;
                case "us", "µs", "μs" -> 1e3;
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                case "h" -> 3600e9;
                case "" -> throw new IllegalArgumentException("invalid duration '" + text + "': missing unit (ns, us, ms, s, m, h)");
                default -> throw new IllegalArgumentException("invalid duration '" + text + "': unknown unit '" + unit + "'");
            };
            any = true;
        }
        if (!any) {
            throw new IllegalArgumentException("invalid duration '" + text + "'");
        }
        long rounded = Math.round(nanos);
        return Duration.ofNanos(negative ? -rounded : rounded);
    }

    /** Go's rendering for whole units: {@code 2s}, {@code 150ms}, {@code 1m30s}. */
    public static String format(Duration d) {
        long nanos = d.toNanos();
        if (nanos == 0) {
            return "0s";
        }
        if (nanos % 1_000_000_000L == 0) {
            long secs = nanos / 1_000_000_000L;
            return secs >= 60 && secs % 60 == 0 ? (secs / 60) + "m" : secs >= 60 ? (secs / 60) + "m" + (secs % 60) + "s" : secs + "s";
        }
        if (nanos % 1_000_000L == 0) {
            return (nanos / 1_000_000L) + "ms";
        }
        if (nanos % 1_000L == 0) {
            return (nanos / 1_000L) + "us";
        }
        return nanos + "ns";
    }
}
