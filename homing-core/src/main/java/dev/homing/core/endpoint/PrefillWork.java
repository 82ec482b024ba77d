package dev.homing.core.endpoint;

/**
 * The attention part of prefilling {@code u} new tokens after {@code c} cached ones: {@code u · (c + u/2)}, the number
 * of (query, key) pairs the new tokens attend over (each attends to the cached prefix and, on average, half of the new
 * ones). A step's compute is dense work per token plus this, scaled by the model's width; a 32k-token prompt costs
 * 1.3x its token count on a 70B model, a 128k one 2.2x, so counting tokens alone underprices long prompts.
 */
public final class PrefillWork {

    private PrefillWork() {
    }

    /** {@code u · (c + u/2)}, saturating at {@link Long#MAX_VALUE}; 0 when either count is not positive. */
    public static long of(long uncached, long cached) {
        if (uncached <= 0) {
            return 0;
        }
        double work = (double) uncached * (Math.max(0, cached) + uncached / 2.0);
        return work >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) work;
    }
}
