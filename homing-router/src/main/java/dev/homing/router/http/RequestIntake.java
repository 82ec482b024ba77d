package dev.homing.router.http;

import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.OpenAiError;
import dev.homing.protocol.openai.RequestFormatException;
import dev.homing.protocol.openai.RequestParser;
import dev.homing.protocol.openai.RoutingFields;
import dev.homing.router.scrape.EndpointCatalog;
import io.helidon.http.Header;
import io.helidon.webserver.http.ServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Turns an HTTP request into an {@link InferenceRequest}: reads the body once (bounded), parses the routing fields
 * in one pass, checks the model is served. Shared by the proxy and {@code /debug/schedule}, so both judge a request
 * the same way.
 */
public final class RequestIntake {

    private final EndpointCatalog catalog;
    private final int maxBodyBytes;

    public RequestIntake(EndpointCatalog catalog, int maxBodyBytes) {
        this.catalog = catalog;
        this.maxBodyBytes = maxBodyBytes;
    }

    /** Either a request, or the error to answer with. */
    public record Result(InferenceRequest request, byte[] body, OpenAiError error) {
        static Result failed(OpenAiError error) {
            return new Result(null, null, error);
        }
    }

    public Result read(ApiKind api, ServerRequest req) {
        byte[] body;
        try (InputStream in = req.content().inputStream()) {
            body = BodyReader.read(in, req.headers().contentLength().orElse(-1), maxBodyBytes);
        } catch (BodyReader.TooLargeException e) {
            return Result.failed(OpenAiError.payloadTooLarge(maxBodyBytes));
        } catch (IOException | RuntimeException e) {
            return Result.failed(OpenAiError.badRequest("The request body could not be read: " + e.getMessage(), null));
        }
        return parse(api == null ? guessApi(body) : api, body, headers(req));
    }

    /** Parses a body read elsewhere (the ext_proc server gathers it from the gateway's chunks). */
    public Result parse(ApiKind api, byte[] body, Map<String, String> headers) {
        RoutingFields fields;
        try {
            fields = RequestParser.parse(api, body);
        } catch (RequestFormatException e) {
            return Result.failed(e.error());
        }
        if (catalog.knownNotServed(fields.model())) {
            return Result.failed(OpenAiError.modelNotFound(fields.model()));
        }
        String requestId = headers.computeIfAbsent("x-request-id", k -> UUID.randomUUID().toString());
        return new Result(new InferenceRequest(requestId, fields, headers), body, null);
    }

    /** A body with {@code "messages"} is a chat completion; anything else a completion. */
    static ApiKind guessApi(byte[] body) {
        return RequestParser.hasTopLevelField(body, "messages") ? ApiKind.CHAT_COMPLETIONS : ApiKind.COMPLETIONS;
    }

    private static Map<String, String> headers(ServerRequest req) {
        Map<String, String> out = new HashMap<>();
        for (Header h : req.headers()) {
            out.putIfAbsent(h.name().toLowerCase(Locale.ROOT), h.values());
        }
        return out;
    }
}
