package dev.homing.core.framework.scheduling;

import dev.homing.core.endpoint.EndpointState;
import java.util.List;

/**
 * The outcome of running one scheduling profile, with everything needed to explain it.
 *
 * @param candidates endpoints that passed the filters; scores and totals are indexed like this list
 * @param totals     weighted sums of the clamped scores
 * @param targets    the picker's choice, best first (more than one when it returns fallbacks)
 */
public record ProfileResult(String profile, List<FilterStep> filters, List<EndpointState> candidates,
                            List<ScoreBreakdown> scores, double[] totals, List<EndpointState> targets) {

    public ProfileResult {
        filters = List.copyOf(filters);
        candidates = List.copyOf(candidates);
        scores = List.copyOf(scores);
        targets = List.copyOf(targets);
    }

    public EndpointState target() {
        return targets.isEmpty() ? null : targets.get(0);
    }
}
