package dev.homing.bench.result;

import java.util.List;
import java.util.Map;

/**
 * One policy's run of one workload.
 *
 * @param stageQps      the offered load of each stage, by stage index (requests/s; 0 for closed loop)
 * @param pluginReports what the policy's self-reporting plugins said at the end, by plugin name (a predictor's
 *                      error, say); empty for policies that have none
 * @param flows         per request (index of {@code records}), its flow, priority and admission; empty when the
 *                      workload has no flows (then every request is of no flow and priority 0)
 */
public record PolicyRun(String policy, String workload, List<RequestRecord> records, List<LoadSample> load,
                        List<Double> stageQps, long wallNanos, Map<String, Map<String, Double>> pluginReports,
                        List<FlowRecord> flows) {
    public PolicyRun {
        records = List.copyOf(records);
        flows = List.copyOf(flows);
        if (!flows.isEmpty() && flows.size() != records.size()) {
            throw new IllegalArgumentException("flows: one per record, got " + flows.size() + " for "
                    + records.size());
        }
        load = List.copyOf(load);
        stageQps = List.copyOf(stageQps);
        pluginReports = Map.copyOf(pluginReports);
    }

    /** A run of a workload without flows. */
    public PolicyRun(String policy, String workload, List<RequestRecord> records, List<LoadSample> load,
                     List<Double> stageQps, long wallNanos, Map<String, Map<String, Double>> pluginReports) {
        this(policy, workload, records, load, stageQps, wallNanos, pluginReports, List.of());
    }

    /** A run whose policy reports nothing of its own. */
    public PolicyRun(String policy, String workload, List<RequestRecord> records, List<LoadSample> load,
                     List<Double> stageQps, long wallNanos) {
        this(policy, workload, records, load, stageQps, wallNanos, Map.of());
    }
}
