package dev.homing.sim.engine;

/**
 * Token counts of one request as vLLM reports them in {@code usage}.
 *
 * @param cachedTokens prompt tokens served from the prefix cache when the request was first scheduled
 *                     (vLLM's {@code num_cached_tokens}; a later preemption does not change it)
 */
public record Usage(int promptTokens, int completionTokens, int cachedTokens) {

    public int totalTokens() {
        return promptTokens + completionTokens;
    }
}
