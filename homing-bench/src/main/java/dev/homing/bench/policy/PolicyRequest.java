package dev.homing.bench.policy;

import dev.homing.bench.workload.Prompt;
import dev.homing.protocol.openai.RoutingFields;

/**
 * One request as a policy sees it at its arrival: the routing fields the router parsed from the JSON body it would
 * receive, and the prompt behind it. Each policy reads what its real counterpart reads: Homing and llm-d the parsed
 * body (and, for precise routing, the tokens through their token source), SGLang the prompt's text, AIBrix its bytes,
 * Dynamo its tokens (its frontend tokenizes).
 *
 * @param fields the body's routing fields, or null when the policy does not read bodies
 * @param tokens the token ids the engine will see
 * @param flow     its fairness id ({@code x-gateway-inference-fairness-id}), or null for none
 * @param priority its priority (below 0: sheddable)
 */
public record PolicyRequest(String id, RoutingFields fields, Prompt prompt, int[] tokens, int maxTokens, String flow,
                            int priority) {

    /** A request of no flow and priority 0. */
    public PolicyRequest(String id, RoutingFields fields, Prompt prompt, int[] tokens, int maxTokens) {
        this(id, fields, prompt, tokens, maxTokens, null, 0);
    }
}
