package dev.homing.protocol.openai;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * An error in the shape vLLM's OpenAI-compatible server answers with:
 * {@code {"error":{"message":...,"type":...,"param":...,"code":<http status>}}}.
 * Routers and the simulator both answer with it so that OpenAI SDKs surface the message unchanged.
 */
public record OpenAiError(int status, String type, String message, String param) {

    private static final JsonFactory JSON = new JsonFactory();

    public OpenAiError {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(message, "message");
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("not an error status: " + status);
        }
    }

    public static OpenAiError badRequest(String message, String param) {
        return new OpenAiError(400, "BadRequestError", message, param);
    }

    /** A missing or wrong API key: OpenAI's SDKs raise their {@code AuthenticationError} for it. */
    public static OpenAiError unauthorized(String message) {
        return new OpenAiError(401, "AuthenticationError", message, null);
    }

    public static OpenAiError notFound(String message, String param) {
        return new OpenAiError(404, "NotFoundError", message, param);
    }

    public static OpenAiError modelNotFound(String model) {
        return notFound("The model `" + model + "` does not exist.", "model");
    }

    public static OpenAiError payloadTooLarge(long limitBytes) {
        return new OpenAiError(413, "BadRequestError",
                "Request body is larger than the limit of " + limitBytes + " bytes.", null);
    }

    public static OpenAiError methodNotAllowed(String method, String path) {
        return new OpenAiError(405, "MethodNotAllowedError", "Method " + method + " is not allowed on " + path + ".", null);
    }

    public static OpenAiError rateLimited(String message) {
        return new OpenAiError(429, "RateLimitError", message, null);
    }

    public static OpenAiError internal(String message) {
        return new OpenAiError(500, "InternalServerError", message, null);
    }

    public static OpenAiError badGateway(String message) {
        return new OpenAiError(502, "BadGatewayError", message, null);
    }

    public static OpenAiError serviceUnavailable(String message) {
        return new OpenAiError(503, "ServiceUnavailableError", message, null);
    }

    public static OpenAiError timeout(String message) {
        return new OpenAiError(504, "GatewayTimeoutError", message, null);
    }

    /** A server-side refusal by status: 429 and 500 by their names, any other status as unavailable. */
    public static OpenAiError refused(int status, String message) {
        return switch (status) {
            case 429 -> rateLimited(message);
            case 500 -> internal(message);
            default -> new OpenAiError(status, "ServiceUnavailableError", message, null);
        };
    }

    /** The body, UTF-8 JSON. */
    public byte[] toJson() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128 + message.length());
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeObjectFieldStart("error");
            writeFields(g);
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Writes message, type, param and code into an object the caller has opened (used for SSE error events too). */
    public void writeFields(JsonGenerator g) throws IOException {
        g.writeStringField("message", message);
        g.writeStringField("type", type);
        if (param == null) {
            g.writeNullField("param");
        } else {
            g.writeStringField("param", param);
        }
        g.writeNumberField("code", status);
    }
}
