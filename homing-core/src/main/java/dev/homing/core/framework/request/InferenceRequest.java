package dev.homing.core.framework.request;

import dev.homing.protocol.openai.RoutingFields;
import java.util.Map;
import java.util.Objects;

/**
 * An inference request as the scheduler sees it: the routing fields read from the body, the request headers
 * (lower-cased names) and the model it will be served as.
 *
 * @param requestId   {@code x-request-id}, or one the router made up
 * @param targetModel the model (or LoRA adapter) the pod will serve it as, after any rewrite; null for a request
 *                    naming no model (a passthrough one), which any endpoint may serve
 * @param priority    its objective's priority ({@code x-gateway-inference-objective}): higher is more important,
 *                    below 0 sheddable; 0 without an objective
 */
public record InferenceRequest(String requestId, RoutingFields fields, Map<String, String> headers, String targetModel,
                               int priority) {

    /** The header naming a request's {@code InferenceObjective}. */
    public static final String OBJECTIVE_HEADER = "x-gateway-inference-objective";
    /** The header naming a request's flow, for fairness within its priority band. */
    public static final String FAIRNESS_HEADER = "x-gateway-inference-fairness-id";
    /** llm-d's flow for a request that names none. */
    public static final String DEFAULT_FAIRNESS_ID = "default-flow";

    public InferenceRequest {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(fields, "fields");
        headers = Map.copyOf(headers);
        if (targetModel == null) {
            targetModel = fields.model();
        }
    }

    public InferenceRequest(String requestId, RoutingFields fields, Map<String, String> headers, String targetModel) {
        this(requestId, fields, headers, targetModel, 0);
    }

    public InferenceRequest(String requestId, RoutingFields fields, Map<String, String> headers) {
        this(requestId, fields, headers, null, 0);
    }

    /** The same request at another priority. */
    public InferenceRequest withPriority(int p) {
        return p == priority ? this : new InferenceRequest(requestId, fields, headers, targetModel, p);
    }

    /** The same request to be served as {@code model} (a model rewrite). */
    public InferenceRequest withTargetModel(String model) {
        return new InferenceRequest(requestId, fields, headers, model, priority);
    }

    /** Sheddable: priority below 0, dropped first when the pool is saturated. */
    public boolean sheddable() {
        return priority < 0;
    }

    /** The objective the request names ({@code x-gateway-inference-objective}, else the older llm-d name), or null. */
    public String objective() {
        return header(OBJECTIVE_HEADER, "x-llm-d-inference-objective");
    }

    /**
     * The flow the request belongs to ({@code x-gateway-inference-fairness-id}, else the older llm-d name),
     * {@code default-flow} if none.
     */
    public String fairnessId() {
        String v = header(FAIRNESS_HEADER, "x-llm-d-inference-fairness-id");
        return v == null ? DEFAULT_FAIRNESS_ID : v;
    }

    private String header(String name, String older) {
        String v = headers.get(name);
        if (v == null || v.isEmpty()) {
            v = headers.get(older);
        }
        return v == null || v.isEmpty() ? null : v;
    }

    public String model() {
        return fields.model();
    }

    /** A header value by lower-case name, or null. */
    public String header(String lowerCaseName) {
        return headers.get(lowerCaseName);
    }

    public String cacheSalt() {
        return fields.cacheSalt();
    }

    public int estimatedPromptTokens() {
        return fields.estimatedPromptTokens();
    }
}
