package dev.homing.bench.report;

import dev.homing.bench.result.BenchReport;
import dev.homing.bench.result.CacheBounds;
import dev.homing.bench.result.PolicyRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One workload's runs, one per policy in the order the bench ran them, with the hit rates no router can beat on it:
 * the unit every table and chart of a report is drawn for.
 *
 * @param hitRateBound the infinite shared cache's; NaN when the report has none for this workload
 * @param cacheBounds  one cache of the fleet's capacity under Belady and LRU; null when the capacity is unknown
 */
public record WorkloadResults(String workload, double hitRateBound, CacheBounds cacheBounds, List<RunSummary> runs) {

    public WorkloadResults {
        runs = List.copyOf(runs);
    }

    /** The report's workloads in the order they first appear. */
    public static List<WorkloadResults> of(BenchReport report) {
        Map<String, List<RunSummary>> byWorkload = new LinkedHashMap<>();
        for (PolicyRun run : report.runs()) {
            byWorkload.computeIfAbsent(run.workload(), k -> new ArrayList<>()).add(RunSummary.of(run));
        }
        List<WorkloadResults> out = new ArrayList<>();
        byWorkload.forEach((name, runs) -> {
            Double bound = report.hitRateBounds().get(name);
            out.add(new WorkloadResults(name, bound == null ? Double.NaN : bound, report.cacheBounds().get(name),
                    runs));
        });
        return out;
    }

    /**
     * What "hit rate / bound" divides by: Belady's over the fleet's capacity, the highest hit rate any placement can
     * reach; the infinite cache's when the capacity is unknown (live runs), a looser bound, and {@link #boundName}
     * says which.
     */
    public double bound() {
        return cacheBounds != null ? cacheBounds.belady() : hitRateBound;
    }

    public String boundName() {
        return cacheBounds != null ? "Belady" : "infinite cache";
    }

    /** The bounds in words, for a report's heading of the workload. */
    public String boundsLine() {
        StringBuilder b = new StringBuilder("hit-rate bound ");
        if (cacheBounds != null) {
            b.append(Metric.HIT_RATE.format(cacheBounds.belady())).append(" (Belady, one cache of the fleet's ")
                    .append(String.format(java.util.Locale.ROOT, "%,d", cacheBounds.capacityBlocks()))
                    .append(" KV blocks; LRU of the same: ").append(Metric.HIT_RATE.format(cacheBounds.lru()))
                    .append("); infinite cache ").append(Metric.HIT_RATE.format(hitRateBound));
        } else {
            b.append(Metric.HIT_RATE.format(hitRateBound)).append(" (infinite cache; the fleet's capacity is unknown)");
        }
        return b.toString();
    }

    /**
     * Whether every stage offered a rate. Closed-loop stages offer none (0), so their against-load plots use the rate
     * they achieved instead: still the x a capacity curve is read on.
     */
    public boolean openLoop() {
        return runs.stream().flatMap(r -> r.stages().stream()).allMatch(s -> s.offeredQps() > 0);
    }

    /** The x of a stage in the against-load plots and tables. */
    public double load(StageSummary stage) {
        return openLoop() ? stage.offeredQps() : stage.summary().requestsPerSecond();
    }

    public String loadLabel() {
        return openLoop() ? "offered QPS" : "achieved requests/s (closed loop)";
    }

    /**
     * One row of a by-stage table: the stage's offered rate (NaN when none was), each run's value of {@code m} in run
     * order (NaN when the run has no such stage) and which of them are best.
     */
    public record StageRow(int stage, double offeredQps, double[] values, boolean[] best) {
    }

    public StageRow stageRow(int stage, Metric m) {
        double qps = Double.NaN;
        double[] values = new double[runs.size()];
        for (int r = 0; r < values.length; r++) {
            StageSummary s = runs.get(r).stages().stream().filter(x -> x.stage() == stage).findFirst().orElse(null);
            values[r] = s == null ? Double.NaN : m.value(s.summary(), bound());
            if (s != null && s.offeredQps() > 0) {
                qps = s.offeredQps();
            }
        }
        return new StageRow(stage, qps, values, m.best(values));
    }

    /** Every stage index any run has, ascending. */
    public List<Integer> stageIndexes() {
        return runs.stream().flatMap(r -> r.stages().stream()).map(StageSummary::stage).distinct().sorted().toList();
    }
}
