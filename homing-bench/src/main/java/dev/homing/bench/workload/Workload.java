package dev.homing.bench.workload;

import java.util.List;
import java.util.Map;

/**
 * A sequence of requests to send, with how they arrive.
 *
 * @param parameters what made it (generator parameters, seed), for reports
 * @param stageQps   offered load per stage, requests/s (Poisson arrivals); empty for closed loop
 * @param concurrency for closed-loop workloads, the requests kept in flight; 0 for scheduled arrivals
 */
public record Workload(String name, List<WorkloadRequest> requests, List<Double> stageQps, int concurrency,
                       Map<String, Object> parameters) {
    public Workload {
        requests = List.copyOf(requests);
        stageQps = List.copyOf(stageQps);
        parameters = Map.copyOf(parameters);
    }

    public boolean closedLoop() {
        return concurrency > 0;
    }
}
