package dev.homing.core.objective;

import java.util.List;
import java.util.Objects;

/**
 * llm-d's {@code InferenceModelRewrite}: named rules that send requests for a model as another (a canary, an A/B
 * split, a LoRA adapter rolled out by weight). Within one resource the first matching rule wins.
 *
 * @param name  {@code metadata.name}, the {@code model_rewrite_name} label of the decisions metric
 * @param rules {@code spec.rules}, in order
 */
public record ModelRewrite(String name, List<RewriteRule> rules) {

    public ModelRewrite {
        Objects.requireNonNull(name, "name");
        rules = List.copyOf(rules);
    }
}
