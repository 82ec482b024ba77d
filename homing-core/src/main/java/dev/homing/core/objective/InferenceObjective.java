package dev.homing.core.objective;

import java.util.Objects;

/**
 * llm-d's {@code InferenceObjective}: a name a request states in {@code x-gateway-inference-objective}, and the
 * priority its requests get. Higher is more important; below 0 is sheddable (dropped first under saturation).
 *
 * @param name     the resource's {@code metadata.name}, which requests name
 * @param priority {@code spec.priority}; 0 when the resource leaves it unset, as llm-d reads it
 */
public record InferenceObjective(String name, int priority) {

    public InferenceObjective {
        Objects.requireNonNull(name, "name");
    }

    /** Sheddable: llm-d's {@code IsSheddable}, priority below 0. */
    public static boolean sheddable(int priority) {
        return priority < 0;
    }
}
