package dev.homing.sim.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RequestFormatException;
import dev.homing.sim.tokenizer.SimTokenizer;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;

/**
 * vLLM's {@code POST /v1/completions/render} and {@code /v1/chat/completions/render}: the request as the engine would
 * see it, without generating. Completions answer a list with one token-in {@code GenerateRequest} per prompt; chat
 * answers one object. Each carries the prompt's {@code token_ids}, the sampling parameters the request set (with
 * {@code max_tokens} resolved as generation would), and the request's routing fields. Validation, model lookup and
 * context-length errors are those of the generating endpoints.
 */
final class RenderHandler {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Request fields that are sampling parameters, copied into {@code sampling_params} when present. */
    private static final List<String> SAMPLING = List.of("n", "temperature", "top_p", "top_k", "min_p", "seed",
            "presence_penalty", "frequency_penalty", "repetition_penalty", "stop", "stop_token_ids", "ignore_eos",
            "min_tokens", "logprobs", "skip_special_tokens", "spaces_between_special_tokens");

    private final RequestReader reader;
    private final ServedModels models;
    private final RequestIds ids;
    private final int maxModelLen;
    private final int maxBodyBytes;

    RenderHandler(SimTokenizer tokenizer, ServedModels models, RequestIds ids, int maxModelLen, int maxBodyBytes) {
        this.reader = new RequestReader(tokenizer);
        this.models = models;
        this.ids = ids;
        this.maxModelLen = maxModelLen;
        this.maxBodyBytes = maxBodyBytes;
    }

    void handle(ServerRequest req, ServerResponse res, ApiKind api) {
        try {
            CompletionRequest request = reader.read(api, RequestBodies.read(req, maxBodyBytes));
            models.resolve(request.model());
            if (request.chat()) {
                TokenizeHandler.send(res, generateRequest(request, request.promptTokens(), "chatcmpl-"));
            } else {
                ArrayNode out = JSON.createArrayNode();
                for (int[] prompt : request.prompts()) {
                    out.add(generateRequest(request, prompt, "cmpl-"));
                }
                TokenizeHandler.send(res, out);
            }
        } catch (RequestFormatException e) {
            SimPod.sendError(res, e.error());
        }
    }

    private ObjectNode generateRequest(CompletionRequest request, int[] prompt, String idPrefix)
            throws RequestFormatException {
        int maxTokens = CompletionHandler.maxTokens(request, prompt.length, maxModelLen);
        JsonNode body = request.body();
        ObjectNode g = JSON.createObjectNode();
        g.put("request_id", ids.next(idPrefix));
        ArrayNode tokens = g.putArray("token_ids");
        for (int t : prompt) {
            tokens.add(t);
        }
        g.putNull("features");
        ObjectNode sampling = g.putObject("sampling_params");
        for (String field : SAMPLING) {
            JsonNode v = body.get(field);
            if (v != null && !v.isNull()) {
                sampling.set(field, v);
            }
        }
        sampling.put("max_tokens", maxTokens);
        g.put("model", request.model());
        g.put("stream", request.stream());
        JsonNode options = body.get("stream_options");
        g.set("stream_options", options == null ? JSON.nullNode() : options);
        if (request.cacheSalt() == null) {
            g.putNull("cache_salt");
        } else {
            g.put("cache_salt", request.cacheSalt());
        }
        JsonNode priority = body.get("priority");
        g.put("priority", priority != null && priority.canConvertToInt() ? priority.intValue() : 0);
        JsonNode kv = body.get("kv_transfer_params");
        g.set("kv_transfer_params", kv == null ? JSON.nullNode() : kv);
        g.putNull("token_offsets");
        if (request.chat()) {
            g.putNull("assistant_tokens_mask");
        }
        return g;
    }
}
