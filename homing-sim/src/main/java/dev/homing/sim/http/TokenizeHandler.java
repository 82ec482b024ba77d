package dev.homing.sim.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.homing.protocol.openai.RequestFormatException;
import dev.homing.sim.tokenizer.SimTokenizer;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * vLLM's {@code POST /tokenize} and {@code POST /detokenize}. Tokenize takes a completion-style {@code prompt} string
 * or chat-style {@code messages} (rendered with the chat template, {@code add_generation_prompt} honoured) and answers
 * {@code {"count","max_model_len","tokens","token_strs"}}; the tokens are exactly what a completion request with the
 * same input puts in the engine, so their block hashes are the ones the pod publishes. Detokenize answers
 * {@code {"prompt": text}}. A {@code model}, when given, must be served.
 */
final class TokenizeHandler {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SimTokenizer tokenizer;
    private final RequestReader reader;
    private final ServedModels models;
    private final int maxModelLen;
    private final int maxBodyBytes;

    TokenizeHandler(SimTokenizer tokenizer, ServedModels models, int maxModelLen, int maxBodyBytes) {
        this.tokenizer = tokenizer;
        this.reader = new RequestReader(tokenizer);
        this.models = models;
        this.maxModelLen = maxModelLen;
        this.maxBodyBytes = maxBodyBytes;
    }

    void tokenize(ServerRequest req, ServerResponse res) {
        try {
            JsonNode root = RequestReader.object(RequestBodies.read(req, maxBodyBytes));
            checkModel(root);
            int[] tokens;
            if (root.has("messages")) {
                tokens = reader.chatPrompt(root, RequestReader.messages(root.get("messages")));
            } else {
                String prompt = RequestReader.string(root, "prompt", true);
                tokens = tokenizer.encode(prompt);
            }
            boolean strs = RequestReader.bool(root, "return_token_strs");
            ObjectNode out = JSON.createObjectNode();
            out.put("count", tokens.length);
            out.put("max_model_len", maxModelLen);
            ArrayNode list = out.putArray("tokens");
            for (int t : tokens) {
                list.add(t);
            }
            if (strs) {
                ArrayNode texts = out.putArray("token_strs");
                for (int t : tokens) {
                    texts.add(tokenizer.decode(new int[] {t}));
                }
            } else {
                out.putNull("token_strs");
            }
            send(res, out);
        } catch (RequestFormatException e) {
            SimPod.sendError(res, e.error());
        }
    }

    void detokenize(ServerRequest req, ServerResponse res) {
        try {
            JsonNode root = RequestReader.object(RequestBodies.read(req, maxBodyBytes));
            checkModel(root);
            JsonNode tokens = root.get("tokens");
            if (tokens == null || tokens.isNull()) {
                throw RequestFormatException.badRequest("The 'tokens' field is required.", "tokens");
            }
            ObjectNode out = JSON.createObjectNode();
            out.put("prompt", tokenizer.decode(reader.tokenIds(tokens, "tokens")));
            send(res, out);
        } catch (RequestFormatException e) {
            SimPod.sendError(res, e.error());
        }
    }

    private void checkModel(JsonNode root) throws RequestFormatException {
        String model = RequestReader.string(root, "model", false);
        if (model != null) {
            models.resolve(model);
        }
    }

    static void send(ServerResponse res, JsonNode body) {
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        try {
            res.send(JSON.writeValueAsBytes(body));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serializes", e);
        }
    }
}
