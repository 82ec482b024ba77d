package dev.homing.bench.report;

import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.result.RequestRecord;
import dev.homing.bench.result.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One policy's run of one workload with its numbers worked out: over the whole run, stage by stage, and the per-pod
 * diagnostics of where its TTFT went.
 */
public record RunSummary(PolicyRun run, Summary total, List<StageSummary> stages, PodDiagnostics diagnostics) {

    public RunSummary {
        stages = List.copyOf(stages);
    }

    /**
     * Summarises a run. Stages are every index the ladder names or a record carries, so a stage that saw no requests
     * still shows (as NaN) instead of silently shifting the ladder.
     */
    public static RunSummary of(PolicyRun run) {
        Map<Integer, List<RequestRecord>> byStage = new TreeMap<>();
        for (int i = 0; i < run.stageQps().size(); i++) {
            byStage.put(i, new ArrayList<>());
        }
        for (RequestRecord r : run.records()) {
            byStage.computeIfAbsent(r.stage(), k -> new ArrayList<>()).add(r);
        }
        List<StageSummary> stages = new ArrayList<>();
        byStage.forEach((stage, records) -> {
            double qps = stage >= 0 && stage < run.stageQps().size() ? run.stageQps().get(stage) : 0;
            stages.add(new StageSummary(stage, qps, Summary.of(records)));
        });
        return new RunSummary(run, Summary.of(run.records()), stages, PodDiagnostics.of(run));
    }

    public String policy() {
        return run.policy();
    }

    public String workload() {
        return run.workload();
    }
}
