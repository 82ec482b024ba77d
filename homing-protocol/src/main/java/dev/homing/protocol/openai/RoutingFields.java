package dev.homing.protocol.openai;

import java.nio.charset.StandardCharsets;

/**
 * What a router needs from an OpenAI request body, read in one streaming pass without copying the prompt:
 * the prompt (or messages, or input) is a slice of the original body bytes.
 *
 * @param model the model asked for; null only for the kinds that may name none (conversations, passthrough)
 * @param promptOffset offset in {@code body} where the JSON value of {@code prompt}, {@code messages}, {@code input}
 *     or {@code items} starts; 0 when there is none
 * @param promptLength its length in bytes, quotes and brackets included; 0 when there is none
 * @param tokenCount exact number of prompt tokens when the prompt is given as token ids, else -1
 * @param maxTokens {@code max_tokens}, {@code max_completion_tokens} or {@code max_output_tokens}, -1 when absent
 * @param messageSpans for {@code messages}, where each message's JSON object lies in {@code body}: (start, end)
 *     offset pairs, in order; empty for other prompts. Not copied, like {@code body}.
 * @param prefixSpans what prefix affinity hashes, in the order the model server renders it: (start, end) pairs of
 *     {@code body}, their bytes taken as one run. The prompt for completions and chat; {@code instructions},
 *     {@code tools} and {@code input} for responses (llm-d hashes those three); {@code items} for conversations; none
 *     for the kinds routed on load only.
 * @param previousResponseId the stored response this request continues ({@code previous_response_id}), or names in
 *     its path ({@code /v1/responses/{id}}); null for none. Only the pod that stored it can answer.
 * @param store whether the model server is asked to store the response ({@code store}, true by default as in OpenAI's
 *     Responses API); false for the other kinds
 */
public record RoutingFields(
        ApiKind api,
        String model,
        boolean stream,
        boolean includeUsage,
        int maxTokens,
        int n,
        String cacheSalt,
        PromptShape promptShape,
        byte[] body,
        int promptOffset,
        int promptLength,
        int tokenCount,
        int[] messageSpans,
        int[] prefixSpans,
        String previousResponseId,
        boolean store) {

    private static final int[] NONE = new int[0];

    /** A passthrough request: nothing read but the model it names (null for none) and its body. */
    public static RoutingFields passthrough(String model, boolean stream, int maxTokens, byte[] body) {
        return new RoutingFields(ApiKind.PASSTHROUGH, model, stream, false, maxTokens, 1, null, PromptShape.NONE, body,
                0, 0, -1, NONE, NONE, null, false);
    }

    /** The same request with no output limit read: it generates nothing (see {@link ApiKind#generatesNothing}). */
    public RoutingFields withoutOutput() {
        return new RoutingFields(api, model, stream, includeUsage, -1, n, cacheSalt, promptShape, body,
                promptOffset, promptLength, tokenCount, messageSpans, prefixSpans, previousResponseId, store);
    }

    /** The same request, naming the stored response it refers to (from a path such as {@code /v1/responses/{id}}). */
    public RoutingFields withPreviousResponseId(String id) {
        return new RoutingFields(api, model, stream, includeUsage, maxTokens, n, cacheSalt, promptShape, body,
                promptOffset, promptLength, tokenCount, messageSpans, prefixSpans, id, store);
    }

    /** The prompt's raw JSON text; a copy, for diagnostics and tests only. */
    public String promptJson() {
        return new String(body, promptOffset, promptLength, StandardCharsets.UTF_8);
    }

    /** The bytes prefix affinity hashes, as one string; a copy, for diagnostics and tests only. */
    public String prefixJson() {
        StringBuilder s = new StringBuilder(prefixLength());
        for (int i = 0; i < prefixSpans.length; i += 2) {
            s.append(new String(body, prefixSpans[i], prefixSpans[i + 1] - prefixSpans[i], StandardCharsets.UTF_8));
        }
        return s.toString();
    }

    /** Bytes of {@link #prefixSpans()} together; 0 for a request routed on load only. */
    public int prefixLength() {
        int total = 0;
        for (int i = 0; i < prefixSpans.length; i += 2) {
            total += prefixSpans[i + 1] - prefixSpans[i];
        }
        return total;
    }

    /**
     * Prompt tokens as the router can know them without a tokenizer: exact for token-id prompts, else the common
     * estimate of four bytes per token (of what prefix affinity hashes, or of the prompt when nothing is); 1 for a
     * request whose prompt the router does not read.
     */
    public int estimatedPromptTokens() {
        return estimatedPromptTokens(4);
    }

    /**
     * Prompt tokens at {@code bytesPerToken} bytes of the text a token stands for (a rate learnt from responses'
     * {@code usage}, say); exact for token-id prompts.
     */
    public int estimatedPromptTokens(double bytesPerToken) {
        if (tokenCount >= 0) {
            return tokenCount;
        }
        return (int) Math.max(1, Math.floor(promptBytes() / bytesPerToken));
    }

    /** Bytes of the text the estimates count: what prefix affinity hashes, or the prompt when nothing is. */
    public int promptBytes() {
        return prefixSpans.length > 0 ? prefixLength() : promptLength;
    }
}
