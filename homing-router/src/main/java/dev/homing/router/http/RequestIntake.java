package dev.homing.router.http;

import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.objective.Objectives;
import dev.homing.core.objective.RewriteDecision;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.ModelField;
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
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Turns a request into an {@link InferenceRequest}, or into the OpenAI-shaped error to answer instead: reads the body
 * once (bounded), parses the routing fields in one pass for the API it was sent to, checks the model is served. The
 * one place every data plane and {@code /debug/schedule} judge a request, so all judge it alike: the HTTP proxy calls
 * {@link #read}, a data plane that is handed the headers and the whole body (the Envoy ext_proc server) calls
 * {@link #parse(ApiKind, byte[], Map)}.
 */
public final class RequestIntake {

    private final EndpointCatalog catalog;
    private final int maxBodyBytes;
    private final Supplier<Objectives> objectives;
    private final ModelRewriting rewriting;

    public RequestIntake(EndpointCatalog catalog, int maxBodyBytes) {
        this(catalog, maxBodyBytes, () -> Objectives.NONE);
    }

    /** @param objectives the objectives known now, whose priorities requests take from the objective they name */
    public RequestIntake(EndpointCatalog catalog, int maxBodyBytes, Supplier<Objectives> objectives) {
        this(catalog, maxBodyBytes, objectives, new SplittableRandom(), d -> { });
    }

    /**
     * @param objectives the objectives and model rewrites known now
     * @param random     draws rewrite targets by weight (used under a lock: requests are judged on many threads)
     * @param decisions  told each rewrite a rule decided ({@code inference_extension_model_rewrite_decisions_total})
     */
    public RequestIntake(EndpointCatalog catalog, int maxBodyBytes, Supplier<Objectives> objectives,
                         RandomGenerator random, Consumer<RewriteDecision> decisions) {
        this.catalog = catalog;
        this.maxBodyBytes = maxBodyBytes;
        this.objectives = objectives;
        this.rewriting = new ModelRewriting(random, decisions);
    }

    /** The largest body taken; a larger one is refused with a 413. */
    public int maxBodyBytes() {
        return maxBodyBytes;
    }

    /**
     * Either a request, or the error to answer with. {@code body} is what goes to the pod: the client's, or a copy
     * whose {@code model} was rewritten ({@code request.targetModel()}).
     */
    public record Result(InferenceRequest request, byte[] body, OpenAiError error) {
        static Result failed(OpenAiError error) {
            return new Result(null, null, error);
        }
    }

    /**
     * Reads an HTTP request of the API {@code api}; null for a body whose API is to be guessed (a chat completion when
     * it has {@code messages}, else a completion: what {@code /debug/schedule} accepts).
     */
    public Result read(ApiKind api, ServerRequest req) {
        byte[] body;
        try (InputStream in = req.content().inputStream()) {
            body = BodyReader.read(in, req.headers().contentLength().orElse(-1), maxBodyBytes);
        } catch (BodyReader.TooLargeException e) {
            return Result.failed(OpenAiError.payloadTooLarge(maxBodyBytes));
        } catch (IOException | RuntimeException e) {
            return Result.failed(OpenAiError.badRequest("The request body could not be read: " + e.getMessage(), null));
        }
        return parse(api == null ? guessApi(body) : api, req.path().path(), body, headers(req));
    }

    /**
     * Parses a whole request body. The request's path, needed only to know which stored response a
     * {@code /v1/responses/{id}} request names, is taken from the headers as llm-d's {@code GetRequestPath} takes it:
     * {@code :path}, else {@code x-original-path}, else {@code x-forwarded-path}.
     *
     * @param api     the API the request was sent to ({@link ApiKind#forPath} of that path)
     * @param headers the request's headers, pseudo-headers included; not changed (names are lower-cased in a copy)
     */
    public Result parse(ApiKind api, byte[] body, Map<String, String> headers) {
        return parse(api, requestPath(headers), body, headers);
    }

    /** As {@link #parse(ApiKind, byte[], Map)}, the path given; null for none. */
    public Result parse(ApiKind api, String path, byte[] body, Map<String, String> headers) {
        Map<String, String> h = new HashMap<>(Math.max(8, headers.size() * 2));
        headers.forEach((k, v) -> h.putIfAbsent(k.toLowerCase(Locale.ROOT), v));
        return parseOwned(api, path, body, h);
    }

    /**
     * As {@link #parse(ApiKind, String, byte[], Map)}, for a data plane that built the header map for this request
     * alone: its names already lower-cased, it becomes the request's own (an {@code x-request-id} is added when
     * missing) instead of being copied.
     */
    public Result parseOwned(ApiKind api, String path, byte[] body, Map<String, String> h) {
        RoutingFields fields;
        try {
            fields = RequestParser.parse(api, body, h.get("content-type"));
        } catch (RequestFormatException e) {
            return Result.failed(e.error());
        }
        if (api == ApiKind.PASSTHROUGH) {
            String named = ApiKind.responseIdInPath(path);
            if (named != null) {
                fields = fields.withPreviousResponseId(named);
            }
            if (ApiKind.generatesNothing(path)) {
                fields = fields.withoutOutput(); // its max_tokens is no output the pod will make
            }
        }
        Objectives known = objectives.get();
        ModelRewriting.Rewritten rewritten = rewriting.apply(known, fields.model(), h, body);
        String target = rewritten == null ? fields.model() : rewritten.target();
        if (target != null && catalog.knownNotServed(target)) { // the pods must serve the model it is sent as
            return Result.failed(OpenAiError.modelNotFound(target));
        }
        String requestId = h.computeIfAbsent("x-request-id", k -> RequestIds.next());
        InferenceRequest request = new InferenceRequest(requestId, fields, h, target);
        return new Result(request.withPriority(known.priority(request.objective())),
                rewritten == null ? body : rewritten.body(), null);
    }

    /** The request's path from its headers as llm-d reads it; null when none says. */
    public static String requestPath(Map<String, String> headers) {
        for (String name : new String[] {":path", "x-original-path", "x-forwarded-path"}) {
            String v = header(headers, name);
            if (v != null && !v.isEmpty()) {
                return v;
            }
        }
        return null;
    }

    private static String header(Map<String, String> headers, String name) {
        String v = headers.get(name);
        if (v != null) {
            return v;
        }
        for (Map.Entry<String, String> e : headers.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return null;
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
