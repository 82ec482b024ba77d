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
 */
public record InferenceRequest(String requestId, RoutingFields fields, Map<String, String> headers, String targetModel) {

    public InferenceRequest {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(fields, "fields");
        headers = Map.copyOf(headers);
        if (targetModel == null) {
            targetModel = fields.model();
        }
    }

    public InferenceRequest(String requestId, RoutingFields fields, Map<String, String> headers) {
        this(requestId, fields, headers, null);
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
