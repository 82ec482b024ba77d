package dev.homing.bench.report;

import dev.homing.bench.result.FlowRecord;
import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.result.RequestRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What admission did to a run of a workload with flows (issue 17's {@code suite-overload}): per flow, and per priority
 * when a band holds several flows, the requests served, shed (429 and 503 apart) and lost (any other answer, or none),
 * TTFT of the served, and time held in flow control; strict-order and shedding checks; and, per band with several
 * flows, how evenly dispatches were shared in 10 s windows among the flows backlogged throughout the window.
 *
 * @param inversions               dispatches made while a request of a higher priority was waiting in flow control
 *                                 (strictly before and after the dispatch instant): 0 under strict priority
 * @param refusedWhileShedDispatched requests of priority >= 0 refused (429/503) although a sheddable request was
 *                                 dispatched while they waited, in [arrival, refusal)
 */
public record AdmissionSummary(List<FlowSummary> flows, long inversions, long refusedWhileShedDispatched,
                               List<Fairness> fairness) {

    /** The fairness windows' length. */
    public static final long WINDOW_NANOS = 10_000_000_000L;

    /**
     * One flow's (or, with {@code flow} "*", one priority's) numbers; times in seconds, NaN when there are none.
     *
     * @param queueP50 over its requests that went through flow control (admitted or refused; 0 for those admitted at
     *                 once); NaN without flow control
     */
    public record FlowSummary(String flow, int priority, int requests, int served, int shed429, int shed503, int lost,
                              double ttftP50, double ttftP90, double queueP50, double queueP99, double queueMax) {
    }

    /**
     * One band's share of dispatches among its flows backlogged throughout a 10 s window: each such flow's share
     * times k (the number of them) minus 1, so 0 is exactly 1/k; over the windows where k >= 2.
     */
    public record Fairness(int priority, int windows, double minDeviation, double maxDeviation) {
    }

    /** Null for a run of a workload without flows. */
    public static AdmissionSummary of(PolicyRun run) {
        List<FlowRecord> f = run.flows();
        if (f.isEmpty()) {
            return null;
        }
        List<RequestRecord> r = run.records();
        Map<String, List<Integer>> byFlow = new LinkedHashMap<>();
        Map<Integer, List<Integer>> byPriority = new TreeMap<>((a, b) -> Integer.compare(b, a));
        Map<Integer, List<String>> flowsOf = new TreeMap<>();
        for (int i = 0; i < f.size(); i++) {
            String id = String.valueOf(f.get(i).flow());
            byFlow.computeIfAbsent(id, k -> new ArrayList<>()).add(i);
            byPriority.computeIfAbsent(f.get(i).priority(), k -> new ArrayList<>()).add(i);
            List<String> ids = flowsOf.computeIfAbsent(f.get(i).priority(), k -> new ArrayList<>());
            if (!ids.contains(id)) {
                ids.add(id);
            }
        }
        List<FlowSummary> rows = new ArrayList<>();
        byPriority.forEach((p, all) -> {
            for (String id : flowsOf.get(p)) {
                rows.add(summary(id, p, byFlow.get(id).stream().filter(i -> f.get(i).priority() == p).toList(), r, f));
            }
            if (flowsOf.get(p).size() > 1) {
                rows.add(summary("*", p, all, r, f));
            }
        });
        List<Fairness> fairness = new ArrayList<>();
        flowsOf.forEach((p, ids) -> {
            if (ids.size() > 1) {
                fairness.add(fairness(p, ids, byPriority.get(p), r, f));
            }
        });
        fairness.sort((a, b) -> Integer.compare(b.priority(), a.priority()));
        return new AdmissionSummary(rows, inversions(r, f), refusedWhileShedDispatched(r, f), fairness);
    }

    private static FlowSummary summary(String flow, int priority, List<Integer> idx, List<RequestRecord> r,
                                       List<FlowRecord> f) {
        int served = 0;
        int s429 = 0;
        int s503 = 0;
        int lost = 0;
        List<Double> ttft = new ArrayList<>();
        List<Double> queue = new ArrayList<>();
        for (int i : idx) {
            RequestRecord rec = r.get(i);
            switch (rec.status()) {
                case 200 -> {
                    served++;
                    if (rec.ttftNanos() >= 0) {
                        ttft.add(rec.ttftNanos() / 1e9);
                    }
                }
                case 429 -> s429++;
                case 503 -> s503++;
                default -> lost++;
            }
            if (f.get(i).queueNanos() >= 0) {
                queue.add(f.get(i).queueNanos() / 1e9);
            }
        }
        double[] t = sorted(ttft);
        double[] q = sorted(queue);
        return new FlowSummary(flow, priority, idx.size(), served, s429, s503, lost, rank(t, 0.5), rank(t, 0.9),
                rank(q, 0.5), rank(q, 0.99), q.length == 0 ? Double.NaN : q[q.length - 1]);
    }

    private static long left(List<RequestRecord> r, List<FlowRecord> f, int i) {
        return r.get(i).arrivalNanos() + Math.max(0, f.get(i).queueNanos());
    }

    /** Dispatches made while a request of a higher priority waited (arrived before, left after the instant). */
    private static long inversions(List<RequestRecord> r, List<FlowRecord> f) {
        Map<Integer, long[][]> waits = new TreeMap<>(); // priority -> {sorted arrivals, sorted leaves} of waiters
        Map<Integer, List<Integer>> waited = new TreeMap<>();
        for (int i = 0; i < f.size(); i++) {
            if (f.get(i).waited()) {
                waited.computeIfAbsent(f.get(i).priority(), k -> new ArrayList<>()).add(i);
            }
        }
        waited.forEach((p, idx) -> {
            long[] a = idx.stream().mapToLong(i -> r.get(i).arrivalNanos()).sorted().toArray();
            long[] l = idx.stream().mapToLong(i -> left(r, f, i)).sorted().toArray();
            waits.put(p, new long[][] {a, l});
        });
        long n = 0;
        for (int i = 0; i < f.size(); i++) {
            if (!f.get(i).dispatched() || f.get(i).queueNanos() < 0) {
                continue;
            }
            long t = left(r, f, i);
            int p = f.get(i).priority();
            for (Map.Entry<Integer, long[][]> e : waits.entrySet()) {
                if (e.getKey() > p && countBelow(e.getValue()[0], t) - countAtOrBelow(e.getValue()[1], t) > 0) {
                    n++;
                    break;
                }
            }
        }
        return n;
    }

    private static long refusedWhileShedDispatched(List<RequestRecord> r, List<FlowRecord> f) {
        long[] shed = java.util.stream.IntStream.range(0, f.size())
                .filter(i -> f.get(i).dispatched() && f.get(i).priority() < 0)
                .mapToLong(i -> left(r, f, i)).sorted().toArray();
        long n = 0;
        for (int i = 0; i < f.size(); i++) {
            int status = r.get(i).status();
            if (f.get(i).priority() >= 0 && (status == 429 || status == 503)) {
                long from = r.get(i).arrivalNanos();
                long to = left(r, f, i);
                if (countBelow(shed, to) - countBelow(shed, from) > 0) { // a sheddable dispatch in [from, to)
                    n++;
                }
            }
        }
        return n;
    }

    private static Fairness fairness(int priority, List<String> ids, List<Integer> idx, List<RequestRecord> r,
                                     List<FlowRecord> f) {
        int k = ids.size();
        long[][] arrivals = new long[k][];
        long[][] leaves = new long[k][];
        for (int j = 0; j < k; j++) {
            String id = ids.get(j);
            List<Integer> w = idx.stream().filter(i -> f.get(i).waited() && id.equals(String.valueOf(f.get(i).flow())))
                    .toList();
            arrivals[j] = w.stream().mapToLong(i -> r.get(i).arrivalNanos()).sorted().toArray();
            leaves[j] = w.stream().mapToLong(i -> left(r, f, i)).sorted().toArray();
        }
        List<long[]> dispatches = new ArrayList<>(); // {time, flow index}
        for (int i : idx) {
            if (f.get(i).dispatched() && f.get(i).queueNanos() >= 0) {
                dispatches.add(new long[] {left(r, f, i), ids.indexOf(String.valueOf(f.get(i).flow()))});
            }
        }
        dispatches.sort((a, b) -> Long.compare(a[0], b[0]));
        double min = Double.NaN;
        double max = Double.NaN;
        int windows = 0;
        int d = 0;
        while (d < dispatches.size()) {
            long window = dispatches.get(d)[0] / WINDOW_NANOS;
            boolean[] backlogged = new boolean[k];
            Arrays.fill(backlogged, true);
            int[] count = new int[k];
            int total = 0;
            for (; d < dispatches.size() && dispatches.get(d)[0] / WINDOW_NANOS == window; d++) {
                long t = dispatches.get(d)[0];
                count[(int) dispatches.get(d)[1]]++;
                total++;
                for (int j = 0; j < k; j++) {
                    // waiting at t: arrived at or before t, left at or after it (the dispatched one itself counts)
                    backlogged[j] &= countAtOrBelow(arrivals[j], t) - countBelow(leaves[j], t) > 0;
                }
            }
            int kb = 0;
            for (boolean b : backlogged) {
                kb += b ? 1 : 0;
            }
            if (kb < 2) {
                continue;
            }
            windows++;
            for (int j = 0; j < k; j++) {
                if (backlogged[j]) {
                    double dev = (double) count[j] / total * kb - 1;
                    min = Double.isNaN(min) ? dev : Math.min(min, dev);
                    max = Double.isNaN(max) ? dev : Math.max(max, dev);
                }
            }
        }
        return new Fairness(priority, windows, min, max);
    }

    /** How many of the sorted values are below t. */
    private static int countBelow(long[] sorted, long t) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static int countAtOrBelow(long[] sorted, long t) {
        return t == Long.MAX_VALUE ? sorted.length : countBelow(sorted, t + 1);
    }

    private static double[] sorted(List<Double> v) {
        double[] a = v.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        return a;
    }

    private static double rank(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
