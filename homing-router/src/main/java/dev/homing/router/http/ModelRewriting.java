package dev.homing.router.http;

import dev.homing.core.objective.Objectives;
import dev.homing.core.objective.RewriteDecision;
import dev.homing.protocol.openai.ModelField;
import java.util.Map;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * Which model a request is sent as, as llm-d's director decides it (llm-d/llm-d-router
 * {@code pkg/epp/requestcontrol/director.go} at 04ddff9a, {@code modelRewriteIfNeeded} and
 * {@code applyWeightedModelRewrite}): the {@code x-gateway-model-name-rewrite} header names a target (the older
 * {@code x-llm-d-model-name-rewrite} when it is absent), and then an {@code InferenceModelRewrite} rule matching the
 * model asked for, if any, draws the target, over the header. Only a rule's decision is counted.
 *
 * <p>The body's {@code model} is replaced in place ({@link ModelField}); a body with no JSON {@code model} string (a
 * multipart form) cannot be rewritten and goes as it is, to the model it names, as llm-d skips a payload it cannot
 * rewrite.
 */
final class ModelRewriting {

    static final String HEADER = "x-gateway-model-name-rewrite";
    static final String OLD_HEADER = "x-llm-d-model-name-rewrite";

    private final RandomGenerator random;
    private final Consumer<RewriteDecision> decisions;

    /** A request sent as another model: that model, and the body naming it. */
    record Rewritten(String target, byte[] body) {
    }

    ModelRewriting(RandomGenerator random, Consumer<RewriteDecision> decisions) {
        this.random = random;
        this.decisions = decisions;
    }

    /** @return the rewrite, or null when the request goes as it is */
    Rewritten apply(Objectives known, String model, Map<String, String> headers, byte[] body) {
        if (model == null) {
            return null;
        }
        String target = headers.get(HEADER);
        if (target == null || target.isEmpty()) {
            target = headers.get(OLD_HEADER);
        }
        if (target == null || target.isEmpty()) {
            target = model;
        }
        RewriteDecision decision = null;
        if (!known.rewrites().isEmpty()) {
            synchronized (random) { // a SplittableRandom is not thread-safe; one draw is held for nanoseconds
                decision = known.rewrite(model, random);
            }
            if (decision != null) {
                target = decision.target();
            }
        }
        if (target.equals(model)) {
            count(decision);
            return null;
        }
        byte[] rewritten = ModelField.replace(body, target);
        if (rewritten == null) {
            return null;
        }
        count(decision);
        return new Rewritten(target, rewritten);
    }

    private void count(RewriteDecision decision) {
        if (decision != null) {
            decisions.accept(decision);
        }
    }
}
