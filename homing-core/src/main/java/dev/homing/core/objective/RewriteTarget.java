package dev.homing.core.objective;

import java.util.Objects;

/**
 * One target of an {@code InferenceModelRewrite} rule ({@code spec.rules[].targets[]}): the model a request is sent as,
 * and its share of the rule's traffic.
 *
 * @param model  {@code modelRewrite}, the model name the pods serve
 * @param weight {@code weight}; 0 when the resource leaves it unset. Shares are weight / sum of the rule's weights; a
 *               rule whose weights are all unset splits evenly, and in a rule that mixes set and unset weights the
 *               unset ones are never chosen, as llm-d's {@code selectWeightedModel} does
 *               (llm-d/llm-d-router {@code pkg/epp/requestcontrol/director.go} at 04ddff9a)
 */
public record RewriteTarget(String model, int weight) {

    public RewriteTarget {
        Objects.requireNonNull(model, "model");
        if (weight < 0) {
            throw new IllegalArgumentException("weight " + weight + " is negative");
        }
    }
}
