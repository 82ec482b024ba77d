package dev.homing.core.framework.scheduling;

import dev.homing.core.endpoint.EndpointState;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Filters, weighted scorers and a picker: one way of choosing an endpoint (llm-d's SchedulerProfile).
 * {@code total[e] = Σ weight_i · clamp01(score_i[e])}, then the picker chooses.
 */
public final class SchedulerProfile {

    private final String name;
    private final List<Filter> filters;
    private final List<WeightedScorer> scorers;
    private final Picker picker;

    public SchedulerProfile(String name, List<Filter> filters, List<WeightedScorer> scorers, Picker picker) {
        this.name = Objects.requireNonNull(name, "name");
        this.filters = List.copyOf(filters);
        this.scorers = List.copyOf(scorers);
        this.picker = Objects.requireNonNull(picker, "picker");
    }

    public String name() {
        return name;
    }

    public List<Filter> filters() {
        return filters;
    }

    public List<WeightedScorer> scorers() {
        return scorers;
    }

    public Picker picker() {
        return picker;
    }

    public ProfileResult run(Cycle cycle, List<EndpointState> endpoints) throws SchedulingException {
        List<EndpointState> candidates = endpoints;
        List<FilterStep> steps = new ArrayList<>(filters.size());
        for (Filter f : filters) {
            candidates = List.copyOf(f.filter(cycle, candidates));
            steps.add(new FilterStep(f.name(), f.type(), candidates));
            if (candidates.isEmpty()) {
                throw SchedulingException.exhausted("no endpoints available: filter " + f.name()
                        + " of profile " + name + " removed every candidate");
            }
        }
        if (candidates.isEmpty()) {
            throw SchedulingException.noEndpoints("no endpoints available for profile " + name);
        }
        int n = candidates.size();
        double[] totals = new double[n];
        List<ScoreBreakdown> breakdown = new ArrayList<>(scorers.size());
        for (WeightedScorer ws : scorers) {
            double[] raw = ws.scorer().score(cycle, candidates);
            if (raw.length != n) {
                throw new IllegalStateException("scorer " + ws.scorer().name() + " returned " + raw.length
                        + " scores for " + n + " candidates");
            }
            double[] clamped = new double[n];
            for (int i = 0; i < n; i++) {
                double s = raw[i];
                clamped[i] = s > 0 ? Math.min(1.0, s) : 0.0; // NaN and negatives count as 0
                totals[i] += ws.weight() * clamped[i];
            }
            breakdown.add(new ScoreBreakdown(ws.scorer().name(), ws.scorer().type(), ws.weight(), clamped));
        }
        List<EndpointState> targets = picker.pick(cycle, candidates, totals);
        if (targets.isEmpty()) {
            throw SchedulingException.exhausted("picker " + picker.name() + " of profile " + name + " chose nothing");
        }
        return new ProfileResult(name, steps, candidates, breakdown, totals, targets);
    }
}
