package dev.homing.bench.result;

import java.util.List;
import java.util.Map;

/**
 * Everything one {@code homing bench} invocation measured: every policy's run of every workload, and for each workload
 * the prefix-cache hit rate an infinite single cache would reach on it and, when the fleet's KV capacity is known
 * (virtual runs), what one cache of that capacity reaches under Belady's and LRU's replacement.
 *
 * @param mode           {@code virtual} or {@code live}
 * @param hitRateBounds  the infinite cache's, per workload name
 * @param cacheBounds    the pooled finite cache's, per workload name; empty when the capacity is unknown (live runs)
 * @param command        the command line that reproduces it
 */
public record BenchReport(String scenario, String mode, long seed, List<PolicyRun> runs,
                          Map<String, Double> hitRateBounds, Map<String, CacheBounds> cacheBounds,
                          Map<String, Object> parameters, String command) {
    public BenchReport {
        runs = List.copyOf(runs);
        hitRateBounds = Map.copyOf(hitRateBounds);
        cacheBounds = Map.copyOf(cacheBounds);
        parameters = Map.copyOf(parameters);
    }

    /** Without finite-cache bounds: a fleet of unknown capacity. */
    public BenchReport(String scenario, String mode, long seed, List<PolicyRun> runs,
                       Map<String, Double> hitRateBounds, Map<String, Object> parameters, String command) {
        this(scenario, mode, seed, runs, hitRateBounds, Map.of(), parameters, command);
    }

    /** The same report with another command line. */
    public BenchReport withCommand(String newCommand) {
        return new BenchReport(scenario, mode, seed, runs, hitRateBounds, cacheBounds, parameters, newCommand);
    }
}
