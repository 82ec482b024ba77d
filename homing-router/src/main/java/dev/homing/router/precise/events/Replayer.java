package dev.homing.router.precise.events;

/** Asks a publisher for the batches it kept (vLLM's replay socket). */
interface Replayer {

    /** Receives one replayed batch. */
    @FunctionalInterface
    interface Batches {
        void take(long seq, byte[] payload);
    }

    /**
     * Hands every kept batch from sequence {@code from} on to {@code batches}, oldest first.
     *
     * @return true when the publisher's end marker arrived; false when it could not be reached or stopped answering
     *     (some batches may have been handed over already)
     */
    boolean replay(long from, Batches batches);
}
