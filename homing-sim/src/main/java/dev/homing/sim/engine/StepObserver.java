package dev.homing.sim.engine;

/** Hears about every engine step as it starts; for per-step metrics such as vLLM's {@code iteration_tokens_total}. */
@FunctionalInterface
public interface StepObserver {

    StepObserver NONE = (startNanos, endNanos, scheduledTokens, running) -> {
    };

    /**
     * @param scheduledTokens tokens computed in this step, decodes and prefill chunks together
     * @param running requests in the batch
     */
    void onStep(long startNanos, long endNanos, int scheduledTokens, int running);
}
