package dev.homing.bench.workload;

import java.util.List;

/**
 * What a workload is and which parameters it takes, for {@code homing bench --help} and for validating parameters.
 *
 * @param parameters its own parameters first, then the arrival and request parameters every workload takes
 */
public record WorkloadSpec(String name, String description, List<Parameter> parameters) {

    public WorkloadSpec {
        parameters = List.copyOf(parameters);
    }

    /**
     * One parameter.
     *
     * @param defaultValue the value used when it is not given, as it would be written; empty when there is none
     */
    public record Parameter(String name, String defaultValue, String description) {
    }
}
