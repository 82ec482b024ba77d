package dev.homing.sim.engine;

/** Why a request ended, with the name vLLM puts in {@code finish_reason} and the {@code finished_reason} metric label. */
public enum FinishReason {
    /** The model emitted its end-of-sequence token. */
    STOP("stop"),
    /** {@code max_tokens} reached, or the sequence reached {@code max_model_len}. */
    LENGTH("length"),
    /** The client went away or the caller aborted the request. */
    ABORT("abort");

    private final String wireName;

    FinishReason(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
