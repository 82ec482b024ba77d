package dev.homing.sim.http;

import dev.homing.protocol.openai.OpenAiError;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The errors llm-d-inference-sim injects ({@code --failure-types}, {@code pkg/llm-d-inference-sim/failures.go}):
 * same names, status codes, params and messages, so tests written against it see the same failures here.
 */
public enum FailureType {
    RATE_LIMIT("rate_limit", 429, null,
            "Rate limit reached for %s in organization org-xxx on requests per min (RPM): Limit 3, Used 3, "
                    + "Requested 1."),
    INVALID_API_KEY("invalid_api_key", 401, null, "Incorrect API key provided."),
    CONTEXT_LENGTH("context_length", 400, "messages",
            "This model's maximum context length is 4096 tokens. However, your messages resulted in 4500 tokens."),
    SERVER_ERROR("server_error", 503, null, "The server is overloaded or not ready yet."),
    INVALID_REQUEST("invalid_request", 400, "model", "Invalid request: missing required parameter 'model'."),
    MODEL_NOT_FOUND("model_not_found", 404, "model", "The model '%s-nonexistent' does not exist");

    private final String wireName;
    private final int status;
    private final String param;
    private final String message;

    FailureType(String wireName, int status, String param, String message) {
        this.wireName = wireName;
        this.status = status;
        this.param = param;
        this.message = message;
    }

    public String wireName() {
        return wireName;
    }

    /** The error for a pod serving {@code model}. */
    public OpenAiError error(String model) {
        return new OpenAiError(status, typeOf(status), message.contains("%s") ? message.formatted(model) : message,
                param);
    }

    /** llm-d-inference-sim's {@code ErrorCodeToType}: the OpenAI SDK's exception name for a status. */
    static String typeOf(int status) {
        return switch (status) {
            case 400 -> "BadRequestError";
            case 401 -> "AuthenticationError";
            case 403 -> "PermissionDeniedError";
            case 404 -> "NotFoundError";
            case 422 -> "UnprocessableEntityError";
            case 429 -> "RateLimitError";
            default -> status >= 500 ? "InternalServerError" : "APIConnectionError";
        };
    }

    public static FailureType of(String name) {
        for (FailureType t : values()) {
            if (t.wireName.equals(name.strip().toLowerCase(Locale.ROOT))) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown failure type '" + name + "'; known: "
                + Arrays.stream(values()).map(FailureType::wireName).collect(Collectors.joining(", ")));
    }
}
