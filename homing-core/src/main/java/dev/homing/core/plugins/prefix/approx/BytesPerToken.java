package dev.homing.core.plugins.prefix.approx;

/**
 * Bytes of prompt text per token, learnt from what responses report: an exponential moving average of {@code bytes /
 * prompt_tokens} over the last ~100 requests, starting from llm-d's assumption of 4. The chat template's tokens count
 * among the prompt's while its text is not hashed, so short prompts read a little low; long prompts, whose blocks fill
 * the caches, dominate the average by weighting each observation by its tokens. Thread-safe.
 */
final class BytesPerToken {

    static final double ASSUMED = 4;
    /** Weight of an observation per token, so that ~100 average prompts (or one very long one) make the estimate. */
    private static final double HALF_WEIGHT_TOKENS = 100_000;
    private static final double MIN = 1;
    private static final double MAX = 16;

    private double value = ASSUMED;
    private double weight;

    synchronized void observe(long bytes, long tokens) {
        if (bytes <= 0 || tokens <= 0) {
            return;
        }
        double sample = Math.max(MIN, Math.min(MAX, (double) bytes / tokens));
        // weight of the past decays as tokens arrive; the first observations count fully
        weight = weight * Math.exp(-tokens / HALF_WEIGHT_TOKENS * Math.log(2)) + tokens;
        value += (sample - value) * tokens / weight;
    }

    synchronized double value() {
        return value;
    }
}
