package dev.homing.core.objective;

import java.util.List;
import java.util.random.RandomGenerator;

/**
 * One rule of an {@code InferenceModelRewrite} ({@code spec.rules[]}): the models it matches exactly
 * ({@code matches[].model.value}, Exact being the only match type the CRD has) and the weighted targets a matching
 * request is sent as. A rule with no matches matches every model, below any exact match (the CRD's precedence).
 *
 * @param models  the model names matched; empty for a rule that matches every request
 * @param targets at least one (the CRD's {@code MinItems=1})
 */
public record RewriteRule(List<String> models, List<RewriteTarget> targets) {

    public RewriteRule {
        models = List.copyOf(models);
        targets = List.copyOf(targets);
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("a rewrite rule needs at least one target");
        }
    }

    /** A rule with no matches: it applies to a model no exact rule names. */
    public boolean generic() {
        return models.isEmpty();
    }

    /**
     * The target a request is sent as: one drawn in proportion to the weights, or evenly when no weight is set
     * (llm-d's {@code selectWeightedModel}: {@code rand.Intn(totalWeight)} walked through the cumulative weights).
     */
    public String choose(RandomGenerator random) {
        long total = 0;
        for (RewriteTarget t : targets) {
            total += t.weight();
        }
        if (total == 0) {
            return targets.get(random.nextInt(targets.size())).model();
        }
        long draw = random.nextLong(total);
        long cumulative = 0;
        for (RewriteTarget t : targets) {
            cumulative += t.weight();
            if (draw < cumulative) {
                return t.model();
            }
        }
        return targets.getLast().model(); // not reached: draw < total
    }
}
