package dev.homing.bench.report;

import dev.homing.bench.result.LoadSample;
import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.result.RequestRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where a policy's time to first token went, pod by pod: what explains a TTFT that the hit rate alone does not.
 *
 * <ul>
 *   <li><b>Uncached prefill work</b>: per pod, Σ (prompt tokens − cached tokens) over the requests it served; the
 *       busiest pod's and the mean over the fleet's pods (a pod that served nothing counts as 0). Max well above
 *       mean is a hot spot: one pod computing what others could have shared.</li>
 *   <li><b>Behind a long prefill</b>: the share of served requests that waited in a pod's queue while another
 *       request's prefill of at least {@link #LONG_PREFILL_TOKENS} uncached tokens was running on that pod, i.e.
 *       whose time in the scheduler's waiting queue overlaps another's [first admission, first token) there. A
 *       request admitted at once never counts, nor does its own prefill.</li>
 *   <li><b>Queue vs own prefill</b>: per request, its time in the scheduler's waiting queue (from joining it, after
 *       the engine's per-request front-end overhead, to first admission) and from admission to the first token (its
 *       own prefill, including the steps it shared with others), p50 / p99 / mean in seconds. TTFT is the
 *       overhead plus the two.</li>
 * </ul>
 * The last two need each request's queue time, which only the virtual runs record; for a live run they are NaN.
 *
 * @param pods                 the pods seen (in load samples or records)
 * @param uncachedMax          the busiest pod's uncached prompt tokens; NaN when no pod reported cached tokens
 * @param uncachedMean         mean over {@code pods}
 * @param behindLongPrefill    share of served requests with a known queue time that waited behind a long prefill
 */
public record PodDiagnostics(int pods, double uncachedMax, double uncachedMean, double behindLongPrefill,
                             double queueP50, double queueP99, double queueMean, double prefillP50,
                             double prefillP99, double prefillMean) {

    /**
     * Uncached tokens from which a prefill counts as long: one whole step of the suite presets'
     * {@code max_num_batched_tokens} (8,192), so a prefill this long takes at least a step to itself.
     */
    public static final int LONG_PREFILL_TOKENS = 8192;

    public static PodDiagnostics of(PolicyRun run) {
        TreeSet<String> pods = new TreeSet<>();
        run.load().stream().map(LoadSample::pod).forEach(pods::add);
        Map<String, List<RequestRecord>> byPod = new TreeMap<>();
        for (RequestRecord r : run.records()) {
            if (r.pod() != null) {
                pods.add(r.pod());
                if (r.ok()) {
                    byPod.computeIfAbsent(r.pod(), k -> new ArrayList<>()).add(r);
                }
            }
        }
        double max = Double.NaN;
        double sum = 0;
        boolean known = false;
        for (List<RequestRecord> records : byPod.values()) {
            long work = 0;
            for (RequestRecord r : records) {
                if (r.uncachedTokens() >= 0) {
                    work += r.uncachedTokens();
                    known = true;
                }
            }
            max = Double.isNaN(max) ? work : Math.max(max, work);
            sum += work;
        }
        double mean = known ? sum / pods.size() : Double.NaN;
        if (!known) {
            max = Double.NaN;
        }
        List<Double> queue = new ArrayList<>();
        List<Double> prefill = new ArrayList<>();
        int timed = 0;
        int behind = 0;
        for (List<RequestRecord> records : byPod.values()) {
            LongPrefills longs = new LongPrefills(records);
            for (RequestRecord r : records) {
                if (r.queueNanos() < 0 || r.scheduledNanos() < 0) {
                    continue;
                }
                timed++;
                queue.add(r.queueNanos() / 1e9);
                if (r.prefillNanos() >= 0) {
                    prefill.add(r.prefillNanos() / 1e9);
                }
                long admitted = r.arrivalNanos() + r.scheduledNanos();
                if (longs.overlaps(admitted - r.queueNanos(), admitted)) {
                    behind++;
                }
            }
        }
        double[] q = sorted(queue);
        double[] p = sorted(prefill);
        return new PodDiagnostics(pods.size(), max, mean, timed == 0 ? Double.NaN : (double) behind / timed,
                percentile(q, 0.50), percentile(q, 0.99), mean(q), percentile(p, 0.50), percentile(p, 0.99), mean(p));
    }

    /** One pod's long prefills as intervals, sorted by start, with the running maximum of their ends. */
    private static final class LongPrefills {
        private final long[] starts;
        private final long[] maxEnd;

        LongPrefills(List<RequestRecord> records) {
            List<long[]> intervals = new ArrayList<>();
            for (RequestRecord r : records) {
                if (r.uncachedTokens() >= LONG_PREFILL_TOKENS && r.prefillNanos() >= 0) {
                    long start = r.arrivalNanos() + r.scheduledNanos();
                    intervals.add(new long[] {start, r.arrivalNanos() + r.ttftNanos()});
                }
            }
            intervals.sort(Comparator.comparingLong(a -> a[0]));
            starts = new long[intervals.size()];
            maxEnd = new long[intervals.size()];
            long m = Long.MIN_VALUE;
            for (int i = 0; i < starts.length; i++) {
                starts[i] = intervals.get(i)[0];
                m = Math.max(m, intervals.get(i)[1]);
                maxEnd[i] = m;
            }
        }

        /**
         * Whether a prefill ran during [from, to): one started before {@code to} and ended after {@code from}. A
         * request's own prefill starts at its {@code to}, so it never counts against itself.
         */
        boolean overlaps(long from, long to) {
            if (to <= from) {
                return false;
            }
            int before = lowerBound(starts, to); // prefills starting before `to`
            return before > 0 && maxEnd[before - 1] > from;
        }

        private static int lowerBound(long[] a, long key) {
            int lo = 0;
            int hi = a.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (a[mid] < key) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
    }

    private static double[] sorted(List<Double> values) {
        double[] a = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        return a;
    }

    /** Nearest rank, as {@link dev.homing.bench.result.Summary}'s percentiles. */
    private static double percentile(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static double mean(double[] values) {
        return Arrays.stream(values).average().orElse(Double.NaN);
    }
}
