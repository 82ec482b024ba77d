package dev.homing.core.objective;

/**
 * A rule's decision for one request: what llm-d counts in {@code inference_extension_model_rewrite_decisions_total}
 * (labels {@code model_rewrite_name}, {@code model_name}, {@code target_model}).
 *
 * @param rewriteName the {@code InferenceModelRewrite} whose rule applied
 * @param model       the model the request asked for
 * @param target      the model it is sent as (may equal {@code model}: a rule may keep part of the traffic)
 */
public record RewriteDecision(String rewriteName, String model, String target) {
}
