package dev.homing.sim.engine;

/**
 * What one request's submitter hears from the engine. Calls come from the thread that drives the engine, at model
 * time {@code nanos} (the end of the step that produced the output), in this order: {@link #onQueued} once when it
 * reaches the scheduler's waiting queue (after the per-request overhead), {@link #onScheduled} once when the
 * scheduler first admits it, {@link #onFirstToken} once, then {@link #onToken} per output token, then
 * {@link #onFinish} exactly once. An aborted request gets onFinish without the calls it had not reached.
 *
 * <p>Implementations must be quick and must not block: the engine steps for every other request wait meanwhile.
 */
public interface RequestObserver {

    RequestObserver NONE = new RequestObserver() {
        @Override
        public void onToken(int tokenId, boolean last, long nanos) {
        }

        @Override
        public void onFinish(FinishReason reason, Usage usage, long nanos) {
        }
    };

    /** The request joined the scheduler's waiting queue, its front-end overhead (API server, tokenisation) done. */
    default void onQueued(long nanos) {
    }

    /** The scheduler admitted the request for the first time, ending its queueing; {@code nanos} starts the step. */
    default void onScheduled(long nanos) {
    }

    /** The prefill is done and the first output token exists; this is the moment TTFT measures. */
    default void onFirstToken(long nanos) {
    }

    /**
     * One output token.
     *
     * @param last true when this token ends the request, i.e. {@link #onFinish} follows from the same step; lets a
     *             streaming writer put the finish reason on the token's own chunk, as vLLM does
     */
    void onToken(int tokenId, boolean last, long nanos);

    void onFinish(FinishReason reason, Usage usage, long nanos);
}
