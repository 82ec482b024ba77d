package dev.homing.sim.http;

import dev.homing.protocol.openai.ApiKind;

/**
 * The parts of a completions or chat-completions request the simulated pod acts on, prompt already tokenized.
 *
 * @param echoTokens what echo mode repeats: the prompt, or the last user message of a chat
 * @param maxTokens {@code max_tokens} ({@code max_completion_tokens} first for chat), or -1 when absent
 */
record CompletionRequest(
        ApiKind api,
        String model,
        int[] promptTokens,
        int[] echoTokens,
        boolean stream,
        boolean includeUsage,
        int maxTokens,
        boolean ignoreEos,
        String cacheSalt) {
}
