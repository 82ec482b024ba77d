package dev.homing.sim.engine;

import java.util.Objects;

/**
 * One generation request as the engine sees it: tokens in, a budget of tokens out.
 *
 * @param promptTokens the prompt, already tokenized; the engine copies it at submission
 * @param maxTokens most output tokens; generation also stops at the engine's max_model_len. 0 for a pooling request
 *     (embeddings): the prompt is prefilled and nothing is sampled, as vLLM runs a pooling model
 * @param ignoreEos keep generating past the end-of-sequence token (vLLM's {@code ignore_eos})
 * @param loraName LoRA adapter, mixed into every block hash; null for the base model
 * @param loraId the adapter's integer id (vLLM's {@code lora_int_id}, reported in KV events); 0 for none
 * @param cacheSalt mixed into the first block's hash only (vLLM's {@code cache_salt}); null for none
 * @param output what the model answers
 */
public record SimRequest(
        String requestId,
        int[] promptTokens,
        int maxTokens,
        boolean ignoreEos,
        String loraName,
        int loraId,
        String cacheSalt,
        OutputModel output) {

    /** A pooling request's output model: never asked for a token. */
    private static final OutputModel NOTHING = new EchoTokens(new int[0], -1, false);

    public SimRequest {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(promptTokens, "promptTokens");
        Objects.requireNonNull(output, "output");
        if (promptTokens.length == 0) {
            throw new IllegalArgumentException("the prompt must have at least one token");
        }
        if ((loraName == null) != (loraId == 0)) {
            throw new IllegalArgumentException("a LoRA adapter needs both a name and a non-zero id");
        }
        if (maxTokens < 0) {
            throw new IllegalArgumentException("maxTokens must be at least 0 (a pooling request), got " + maxTokens);
        }
    }

    /** A pooling request (embeddings): prefill only, no token generated. */
    public static SimRequest pooling(String requestId, int[] promptTokens, String loraName, int loraId,
                                     String cacheSalt) {
        return new SimRequest(requestId, promptTokens, 0, false, loraName, loraId, cacheSalt, NOTHING);
    }

    /** Whether the request only prefills its prompt (embeddings) and generates nothing. */
    public boolean pooling() {
        return maxTokens == 0;
    }

    public static SimRequest of(String requestId, int[] promptTokens, int maxTokens, OutputModel output) {
        return new SimRequest(requestId, promptTokens, maxTokens, false, null, 0, null, output);
    }

    public SimRequest withIgnoreEos(boolean ignore) {
        return new SimRequest(requestId, promptTokens, maxTokens, ignore, loraName, loraId, cacheSalt, output);
    }

    /** Served by LoRA adapter {@code name} with integer id {@code id}; null and 0 for the base model. */
    public SimRequest withLora(String name, int id) {
        return new SimRequest(requestId, promptTokens, maxTokens, ignoreEos, name, id, cacheSalt, output);
    }

    public SimRequest withCacheSalt(String salt) {
        return new SimRequest(requestId, promptTokens, maxTokens, ignoreEos, loraName, loraId, salt, output);
    }
}
