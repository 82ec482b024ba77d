package dev.homing.bench.result;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The numbers a run is judged by, computed from its request records: time to first token (p50, p90, p99, mean),
 * inter-token latency (mean), end-to-end latency (p50, p90), output throughput (tokens/s over the run's span), the
 * prefix-cache hit rate (cached prompt tokens over prompt tokens, as the pods report them), errors by status, and
 * each pod's share of requests. Percentiles are nearest-rank over the served requests.
 */
public record Summary(int requests, int served, double ttftP50, double ttftP90, double ttftP99, double ttftMean,
                      double itlMean, double e2eP50, double e2eP90, double outputTokensPerSecond,
                      double requestsPerSecond, double hitRate, Map<Integer, Integer> errors, Map<String, Integer> perPod) {

    public static Summary of(List<RequestRecord> records) {
        double[] ttft = records.stream().filter(r -> r.ok() && r.ttftNanos() >= 0).mapToDouble(r -> r.ttftNanos() / 1e9).sorted().toArray();
        double[] e2e = records.stream().filter(r -> r.ok() && r.e2eNanos() >= 0).mapToDouble(r -> r.e2eNanos() / 1e9).sorted().toArray();
        double itl = records.stream().filter(RequestRecord::ok).mapToDouble(RequestRecord::itlNanos).filter(v -> v >= 0)
                .average().orElse(Double.NaN) / 1e9;
        long start = records.stream().mapToLong(RequestRecord::arrivalNanos).min().orElse(0);
        long end = records.stream().filter(r -> r.e2eNanos() >= 0).mapToLong(r -> r.arrivalNanos() + r.e2eNanos())
                .max().orElse(start);
        double span = Math.max(1e-9, (end - start) / 1e9);
        long output = records.stream().filter(RequestRecord::ok).mapToLong(RequestRecord::outputTokens).sum();
        long prompt = 0;
        long cached = 0;
        for (RequestRecord r : records) {
            if (r.ok() && r.cachedTokens() >= 0 && r.promptTokens() > 0) {
                prompt += r.promptTokens();
                cached += r.cachedTokens();
            }
        }
        Map<Integer, Integer> errors = new TreeMap<>();
        Map<String, Integer> perPod = new TreeMap<>();
        int served = 0;
        for (RequestRecord r : records) {
            if (r.ok()) {
                served++;
            } else {
                errors.merge(r.status(), 1, Integer::sum);
            }
            if (r.pod() != null) {
                perPod.merge(r.pod(), 1, Integer::sum);
            }
        }
        return new Summary(records.size(), served, rank(ttft, 0.50), rank(ttft, 0.90), rank(ttft, 0.99),
                Arrays.stream(ttft).average().orElse(Double.NaN), itl, rank(e2e, 0.50), rank(e2e, 0.90), output / span,
                served / span, prompt == 0 ? Double.NaN : (double) cached / prompt, errors, perPod);
    }

    /** Nearest-rank percentile of sorted values; NaN for none. */
    static double rank(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
