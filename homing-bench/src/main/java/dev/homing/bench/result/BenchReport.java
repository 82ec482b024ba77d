package dev.homing.bench.result;

import java.util.List;
import java.util.Map;

/**
 * Everything one {@code homing bench} invocation measured: every policy's run of every workload, and for each workload
 * the prefix-cache hit rate an infinite single cache would reach on it (the bound no router can beat).
 *
 * @param mode           {@code virtual} or {@code live}
 * @param hitRateBounds  per workload name
 * @param command        the command line that reproduces it
 */
public record BenchReport(String scenario, String mode, long seed, List<PolicyRun> runs,
                          Map<String, Double> hitRateBounds, Map<String, Object> parameters, String command) {
    public BenchReport {
        runs = List.copyOf(runs);
        hitRateBounds = Map.copyOf(hitRateBounds);
        parameters = Map.copyOf(parameters);
    }
}
