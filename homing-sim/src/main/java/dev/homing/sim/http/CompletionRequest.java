package dev.homing.sim.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.sim.tokenizer.SimTokenizer;
import java.util.List;

/**
 * The parts of a completions or chat-completions request the simulated pod acts on, prompts already tokenized.
 *
 * @param prompts one token list per prompt: one for chat and a single prompt, one per entry of a batch prompt
 * @param lastUserText a chat's last user message, which echo mode repeats (tokenized only then); null for completions
 * @param maxTokens {@code max_tokens} ({@code max_completion_tokens} first for chat), or -1 when absent
 * @param n choices per prompt
 * @param body the whole request, for what only some endpoints read (sampling parameters for /render)
 */
record CompletionRequest(
        ApiKind api,
        String model,
        List<int[]> prompts,
        String lastUserText,
        boolean stream,
        boolean includeUsage,
        int maxTokens,
        boolean ignoreEos,
        String cacheSalt,
        int n,
        JsonNode body) {

    CompletionRequest {
        prompts = List.copyOf(prompts);
    }

    /** The first (for chat, the only) prompt. */
    int[] promptTokens() {
        return prompts.getFirst();
    }

    /** What echo mode repeats for a prompt: the prompt itself, or a chat's last user message. */
    int[] echo(int prompt, SimTokenizer tokenizer) {
        return chat() ? tokenizer.encode(lastUserText) : prompts.get(prompt);
    }

    boolean chat() {
        return api == ApiKind.CHAT_COMPLETIONS;
    }
}
