package dev.homing.bench.report;

import dev.homing.bench.result.BenchReport;
import dev.homing.bench.result.CacheBounds;
import dev.homing.bench.result.LoadSample;
import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.result.RequestRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hand-made reports whose numbers are known by construction: policy i of n is slower than policy i - 1 at every stage
 * (TTFT grows with i and with the stage, the last policy collapsing at high load so the range is wide), caches less,
 * and loads its pods less evenly.
 */
final class SampleReports {

    static final long S = 1_000_000_000L;
    static final List<Double> LADDER = List.of(2.0, 4.0, 8.0);
    static final int PER_STAGE = 20;
    static final int PODS = 3;

    private SampleReports() {
    }

    /** One open-loop workload over {@link #LADDER}, plus (when {@code closed}) a closed-loop one. */
    static BenchReport report(String workload, List<String> policies, boolean closed) {
        List<PolicyRun> runs = new ArrayList<>();
        Map<String, Double> bounds = new LinkedHashMap<>();
        bounds.put(workload, 0.8);
        for (int i = 0; i < policies.size(); i++) {
            runs.add(run(policies.get(i), workload, i, policies.size(), LADDER));
        }
        if (closed) {
            for (int i = 0; i < policies.size(); i++) {
                runs.add(run(policies.get(i), "closed-loop", i, policies.size(), List.of(0.0)));
            }
        }
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("pods", PODS);
        parameters.put("block-size", 16);
        parameters.put("arrival", "poisson");
        // one cache of the fleet's capacity: Belady below the infinite cache, LRU below Belady
        Map<String, CacheBounds> pooled = Map.of(workload, new CacheBounds(300, 0.75, 0.6));
        return new BenchReport("sample", "virtual", 7, runs, bounds, pooled, parameters,
                "homing bench --virtual --scenario sample --seed 7");
    }

    static PolicyRun run(String policy, String workload, int i, int n, List<Double> ladder) {
        List<RequestRecord> records = new ArrayList<>();
        List<LoadSample> load = new ArrayList<>();
        long stageStart = 0;
        for (int stage = 0; stage < ladder.size(); stage++) {
            double qps = ladder.get(stage) > 0 ? ladder.get(stage) : 4;
            for (int k = 0; k < PER_STAGE; k++) {
                long arrival = stageStart + (long) (k * S / qps);
                double collapse = i == n - 1 ? 1 + 10.0 * stage * stage : 1 + stage;
                long ttft = (long) ((0.05 + 0.02 * i) * collapse * (1 + 0.1 * (k % 5)) * S);
                long e2e = ttft + (long) ((0.01 + 0.002 * i) * 49 * S);
                // policy i piles i of every n + 1 requests on pod 0 and spreads the rest
                String pod = "pod-" + (k % (n + 1) < i ? 0 : k % PODS);
                boolean served = i == 0 || k != 7;
                records.add(new RequestRecord(policy + "-" + stage + "-" + k, stage, arrival, served ? pod : null,
                        served ? 200 : 503, served ? ttft : -1, served ? e2e : -1, 100, 70 - 10 * i, 50));
            }
            long stageEnd = stageStart + (long) (PER_STAGE * S / qps);
            for (long t = stageStart; t < stageEnd; t += S / 4) {
                for (int p = 0; p < PODS; p++) {
                    int busy = (int) ((t / (S / 4)) % 5) + (p == 0 ? 2 * i : 0) + stage;
                    load.add(new LoadSample(t, "pod-" + p, busy, p == 0 ? i : 0, 0.1 * busy));
                }
            }
            stageStart = stageEnd;
        }
        return new PolicyRun(policy, workload, records, load, ladder, stageStart);
    }
}
