package dev.homing.sim.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.protocol.openai.OpenAiError;
import dev.homing.protocol.openai.RequestFormatException;
import dev.homing.sim.engine.FinishReason;
import dev.homing.sim.engine.SimRequest;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;

/**
 * vLLM's {@code POST /v1/embeddings}: one pooling request per input ({@code input} as a string, strings, token ids or
 * token-id lists; or chat-style {@code messages}), each a prefill and no decode in the engine, so an embedding costs
 * what its prompt costs and shares the prefix cache. The answer is vLLM's {@code EmbeddingResponse}: {@code embd-}
 * id, one unit vector per input (a pseudo-random one seeded by the input's tokens: the same input, the same vector),
 * as floats or base64 ({@code encoding_format}), and usage with no completion tokens.
 *
 * <p>Unlike vLLM, which serves embeddings only when the model runs as a pooling model ({@code --runner pooling}), the
 * sim answers them beside generation.
 */
final class EmbeddingsHandler {

    /** The demo model's hidden size (Qwen2.5-0.5B): the length of every vector. */
    static final int DIMENSIONS = 896;
    private static final JsonFactory JSON = new JsonFactory();

    private final PodServices pod;
    private final RequestReader reader;

    EmbeddingsHandler(PodServices pod) {
        this.pod = pod;
        this.reader = new RequestReader(pod.tokenizer());
    }

    void handle(ServerRequest req, ServerResponse res) {
        if (pod.forcedFailure(req, res)) {
            return;
        }
        String model;
        ServedModels.Adapter lora;
        List<int[]> inputs;
        boolean base64;
        String cacheSalt;
        try {
            JsonNode root = RequestReader.object(RequestBodies.read(req, pod.config().maxRequestBodyBytes()));
            model = RequestReader.string(root, "model", true);
            lora = pod.models().resolve(model);
            base64 = encoding(root);
            JsonNode dimensions = root.get("dimensions");
            if (dimensions != null && !dimensions.isNull()) {
                // vLLM's words: only a matryoshka model may shorten its vectors, and this one is not
                throw RequestFormatException.badRequest("Model \"" + model + "\" does not support matryoshka "
                        + "representation, changing output dimensions will lead to poor results.", null);
            }
            cacheSalt = RequestReader.string(root, "cache_salt", false);
            if (root.has("input") && !root.get("input").isNull()) {
                inputs = reader.prompts(root.get("input"), "input");
            } else if (root.has("messages")) {
                inputs = List.of(reader.chatPrompt(root, RequestReader.messages(root.get("messages"))));
            } else {
                throw RequestFormatException.badRequest("The 'input' field is required.", "input");
            }
            if (inputs.size() > RequestReader.MAX_CHOICES) {
                throw RequestFormatException.badRequest("This simulator embeds at most " + RequestReader.MAX_CHOICES
                        + " inputs per request; got " + inputs.size() + ".", "input");
            }
            int maxLen = pod.config().engine().maxModelLen();
            for (int[] input : inputs) {
                if (input.length > maxLen) {
                    throw RequestFormatException.badRequest("This model's maximum context length is " + maxLen
                            + " tokens. However, you requested " + input.length + " tokens in the input for "
                            + "embedding generation. Please reduce the length of the input.", "input");
                }
            }
            if (pod.drawnFailure(res)) {
                return;
            }
        } catch (RequestFormatException e) {
            SimPod.sendError(res, e.error());
            return;
        }
        String id = pod.ids().next("embd-");
        ChoiceQueue queue = new ChoiceQueue();
        try (EngineCalls calls = pod.calls()) {
            try {
                for (int i = 0; i < inputs.size(); i++) {
                    SimRequest r = SimRequest.pooling(id + "-" + i, inputs.get(i), lora == null ? null : lora.name(),
                            lora == null ? 0 : lora.id(), cacheSalt);
                    calls.submit(r, pod.metrics().observe(queue.observer(i), calls.submittedNanos(), 0,
                            pod.metrics().choices(1)));
                }
            } catch (IllegalArgumentException e) {
                calls.close();
                SimPod.sendError(res, OpenAiError.badRequest(e.getMessage(), null));
                return;
            }
            for (int remaining = inputs.size(); remaining > 0; ) {
                if (queue.next(pod.closing()) instanceof ChoiceQueue.Finished f) {
                    if (f.reason() == FinishReason.ABORT) {
                        SimPod.sendError(res, OpenAiError.internal("The embedding request was aborted."));
                        return;
                    }
                    remaining--;
                }
            }
            calls.finished();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(body(id, model, inputs, base64));
    }

    private static boolean encoding(JsonNode root) throws RequestFormatException {
        String format = RequestReader.string(root, "encoding_format", false);
        if (format == null || format.equals("float")) {
            return false;
        }
        if (format.equals("base64")) {
            return true;
        }
        throw RequestFormatException.badRequest("The 'encoding_format' field must be 'float' or 'base64'.",
                "encoding_format");
    }

    private byte[] body(String id, String model, List<int[]> inputs, boolean base64) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(inputs.size() * DIMENSIONS * (base64 ? 6 : 12) + 256);
        int promptTokens = 0;
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("id", id);
            g.writeStringField("object", "list");
            g.writeNumberField("created", pod.config().wallClock().instant().getEpochSecond());
            g.writeStringField("model", model);
            g.writeArrayFieldStart("data");
            for (int i = 0; i < inputs.size(); i++) {
                float[] v = vector(inputs.get(i));
                promptTokens += inputs.get(i).length;
                g.writeStartObject();
                g.writeNumberField("index", i);
                g.writeStringField("object", "embedding");
                if (base64) {
                    ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
                    for (float x : v) {
                        b.putFloat(x);
                    }
                    g.writeStringField("embedding", Base64.getEncoder().encodeToString(b.array()));
                } else {
                    g.writeArrayFieldStart("embedding");
                    for (float x : v) {
                        g.writeNumber(x);
                    }
                    g.writeEndArray();
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeObjectFieldStart("usage");
            g.writeNumberField("prompt_tokens", promptTokens);
            g.writeNumberField("total_tokens", promptTokens);
            g.writeNumberField("completion_tokens", 0);
            g.writeNullField("prompt_tokens_details");
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A unit vector drawn from a generator seeded by the tokens: equal inputs embed equally, others apart. */
    static float[] vector(int[] tokens) {
        long seed = 0xcbf29ce484222325L;
        for (int t : tokens) {
            seed = (seed ^ t) * 0x100000001b3L;
        }
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[DIMENSIONS];
        double norm = 0;
        for (int i = 0; i < v.length; i++) {
            double x = r.nextDouble(-1, 1);
            v[i] = (float) x;
            norm += x * x;
        }
        float scale = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < v.length; i++) {
            v[i] *= scale;
        }
        return v;
    }
}
