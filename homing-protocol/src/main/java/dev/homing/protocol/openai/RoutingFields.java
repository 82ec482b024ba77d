package dev.homing.protocol.openai;

import java.nio.charset.StandardCharsets;

/**
 * What a router needs from an OpenAI request body, read in one streaming pass without copying the prompt:
 * the prompt (or messages) is a slice of the original body bytes.
 *
 * @param promptOffset offset in {@code body} where the JSON value of {@code prompt} or {@code messages} starts
 * @param promptLength its length in bytes, quotes and brackets included
 * @param tokenCount exact number of prompt tokens when the prompt is given as token ids, else -1
 * @param maxTokens {@code max_tokens} or {@code max_completion_tokens}, -1 when absent
 * @param messageSpans for {@code messages}, where each message's JSON object lies in {@code body}: (start, end)
 *     offset pairs, in order; empty for other prompts. Not copied, like {@code body}.
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
        int[] messageSpans) {

    /** The prompt's raw JSON text; a copy, for diagnostics and tests only. */
    public String promptJson() {
        return new String(body, promptOffset, promptLength, StandardCharsets.UTF_8);
    }

    /**
     * Prompt tokens as the router can know them without a tokenizer: exact for token-id prompts,
     * else the common estimate of four bytes per token.
     */
    public int estimatedPromptTokens() {
        return tokenCount >= 0 ? tokenCount : Math.max(1, promptLength / 4);
    }
}
