package dev.homing.bench.virtual;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A virtual-time experiment: a fleet of simulated pods, a workload, and the policies compared on it.
 *
 * @param preset             the simulator preset of every pod ({@code dev.homing.sim.engine.Preset} id)
 * @param workload           a workload name for {@code Workloads.create}
 * @param workloadParameters its parameters, as {@code homing bench} passes them
 * @param policies           the policies run when none are named
 * @param scrapeInterval     how often the router scrapes each pod's metrics (virtual time)
 * @param kvEventLag         from the end of an engine step's scheduling to its KV events reaching the router
 */
public record Scenario(String name, String description, String preset, int pods, String workload,
                       Map<String, String> workloadParameters, List<String> policies, Duration scrapeInterval,
                       Duration kvEventLag) {

    public Scenario {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(preset, "preset");
        Objects.requireNonNull(workload, "workload");
        workloadParameters = Map.copyOf(workloadParameters);
        policies = List.copyOf(policies);
        if (pods < 1 || pods > 64) {
            throw new IllegalArgumentException("scenario " + name + ": 1 to 64 pods, got " + pods);
        }
        if (scrapeInterval.isNegative() || scrapeInterval.isZero()) {
            throw new IllegalArgumentException("scenario " + name + ": scrape interval must be > 0");
        }
        if (kvEventLag.isNegative()) {
            throw new IllegalArgumentException("scenario " + name + ": KV-event lag must be >= 0");
        }
    }
}
