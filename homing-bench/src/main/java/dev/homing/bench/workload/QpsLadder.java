package dev.homing.bench.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.random.RandomGenerator;

/**
 * Offered load over time: stages of a rate (requests/s) held for some seconds, written {@code 3x20,10x20,15x20} as
 * llm-d's benchmark reports write their ladders (QPS × seconds), or a single rate.
 */
record QpsLadder(List<Stage> stages) {

    record Stage(double qps, double seconds) {
    }

    QpsLadder {
        stages = List.copyOf(stages);
    }

    /** A ladder {@code QxS,...}, or a single {@code Q} held for {@code seconds} (infinite when NaN). */
    static QpsLadder parse(String text, double seconds) {
        String[] parts = text.split(",", -1);
        List<Stage> stages = new ArrayList<>(parts.length);
        boolean single = parts.length == 1 && !parts[0].toLowerCase(Locale.ROOT).contains("x");
        for (String part : parts) {
            String[] qs = part.trim().toLowerCase(Locale.ROOT).split("x", -1);
            if (single) {
                stages.add(new Stage(number(qs[0], "a rate"), seconds));
                continue;
            }
            if (qs.length != 2) {
                throw new IllegalArgumentException("stage '" + part.trim() + "' is not QPSxSECONDS");
            }
            double s = number(qs[1], "seconds");
            if (!(s > 0)) {
                throw new IllegalArgumentException("stage '" + part.trim() + "' lasts no time");
            }
            stages.add(new Stage(number(qs[0], "a rate"), s));
        }
        return new QpsLadder(stages);
    }

    boolean isSingle() {
        return stages.size() == 1;
    }

    List<Double> rates() {
        return stages.stream().map(Stage::qps).toList();
    }

    /** Requests the ladder offers on average (infinite for an endless stage). */
    double expectedRequests() {
        return stages.stream().mapToDouble(s -> s.qps() == 0 ? 0 : s.qps() * s.seconds()).sum();
    }

    /**
     * Poisson arrivals: exponential gaps at each stage's rate, restarted at each stage's start (the process is
     * memoryless, so nothing is lost), at most {@code max} of them.
     *
     * @param stageOut receives each arrival's stage index
     */
    long[] arrivals(RandomGenerator rng, int max, List<Integer> stageOut) {
        List<Long> times = new ArrayList<>();
        double start = 0;
        for (int k = 0; k < stages.size() && times.size() < max; k++) {
            Stage s = stages.get(k);
            double end = start + s.seconds();
            double t = start;
            while (s.qps() > 0 && times.size() < max) {
                t += -Math.log(1.0 - rng.nextDouble()) / s.qps();
                if (t >= end) {
                    break;
                }
                times.add(Math.round(t * 1e9));
                stageOut.add(k);
            }
            start = end;
        }
        return times.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * Bursty arrivals: gaps drawn from a Gamma distribution of the given shape (coefficient of variation
     * {@code 1/sqrt(shape)}; shape 1 is Poisson in law) with mean {@code 1 / (rate x rateFactor)}, restarted at each
     * stage's start, at most {@code max} of them.
     *
     * @param rateFactor scales every stage's rate (sessions per request, say)
     * @param stageOut   receives each arrival's stage index
     */
    long[] gammaArrivals(RandomGenerator rng, int max, List<Integer> stageOut, double rateFactor, double shape) {
        List<Long> times = new ArrayList<>();
        double start = 0;
        for (int k = 0; k < stages.size() && times.size() < max; k++) {
            Stage s = stages.get(k);
            double rate = s.qps() * rateFactor;
            double end = start + s.seconds();
            double t = start;
            while (rate > 0 && times.size() < max) {
                t += RandomDraws.gammaMeanOne(rng, shape) / rate;
                if (t >= end) {
                    break;
                }
                times.add(Math.round(t * 1e9));
                stageOut.add(k);
            }
            start = end;
        }
        return times.stream().mapToLong(Long::longValue).toArray();
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (Stage s : stages) {
            b.append(b.isEmpty() ? "" : ",").append(format(s.qps())).append('x').append(format(s.seconds()));
        }
        return b.toString();
    }

    private static String format(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    private static double number(String s, String what) {
        try {
            double v = Double.parseDouble(s.trim());
            if (!Double.isFinite(v) || v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s.trim() + "' is not " + what + " (a number, at least 0)");
        }
    }
}
