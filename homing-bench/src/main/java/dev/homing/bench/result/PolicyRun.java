package dev.homing.bench.result;

import java.util.List;

/**
 * One policy's run of one workload.
 *
 * @param stageQps the offered load of each stage, by stage index (requests/s; 0 for closed loop)
 */
public record PolicyRun(String policy, String workload, List<RequestRecord> records, List<LoadSample> load,
                        List<Double> stageQps, long wallNanos) {
    public PolicyRun {
        records = List.copyOf(records);
        load = List.copyOf(load);
        stageQps = List.copyOf(stageQps);
    }
}
