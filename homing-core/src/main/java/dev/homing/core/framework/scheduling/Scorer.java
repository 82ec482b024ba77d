package dev.homing.core.framework.scheduling;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.Plugin;
import java.util.List;

/**
 * Scores candidates in [0,1]; out-of-range values are clamped by the scheduler and NaN counts as 0.
 * Returns one score per candidate, in candidate order (an array, not a map: a decision must stay in microseconds).
 */
public interface Scorer extends Plugin {
    double[] score(Cycle cycle, List<EndpointState> candidates);

    default ScorerCategory category() {
        return ScorerCategory.BALANCE;
    }
}
