package dev.homing.core.framework.scheduling;

import java.util.Objects;

/** A scorer with its weight in one profile. Weights are not normalised, as in llm-d. */
public record WeightedScorer(Scorer scorer, double weight) {
    public WeightedScorer {
        Objects.requireNonNull(scorer, "scorer");
        if (!(weight >= 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("weight of " + scorer.name() + " must be a finite number >= 0, got " + weight);
        }
    }
}
