package dev.homing.router.precise.events;

/**
 * What the subscribers report as they feed the precise indexes: the router's metrics listen, tests may too. Called on
 * subscriber and worker threads; implementations are thread-safe and quick.
 */
public interface KvEventsObserver {

    /** A batch from {@code pod} was taken in sequence (live or replayed) and decoded. */
    void batchTaken(String pod);

    /** Events of {@code pod} the index applied. */
    void eventsApplied(String pod, int events);

    /**
     * Events left out: {@code unknown_type} (a newer engine's event), {@code unresolved} (a parent block never seen,
     * another block size), {@code out_of_order} (a batch given up for lost that came after newer ones).
     */
    void eventsSkipped(String reason, int events);

    /** The live stream of {@code pod} jumped {@code missing} sequence numbers ahead. */
    void gap(String pod, long missing);

    /** Batches of {@code pod} that could not be had: its index entries were dropped, to be rebuilt from what follows. */
    void batchesLost(String pod, long batches);

    /** A replay was asked of {@code pod}; {@code complete} when its end marker arrived. */
    void replay(String pod, boolean complete);

    /**
     * A new publisher for {@code pod} (the engine restarted): its sequence went back to a batch it had not sent, or the
     * connection to it ended (when dialing it); its entries were dropped.
     */
    void restart(String pod);

    /** A message that is not a KV-event batch (frames, sequence or payload); {@code pod} is empty when unknown. */
    void malformed(String pod);

    /** A message whose topic names no endpoint of the pool (centralized mode); its events are dropped. */
    void unknownPod(String podId);
}
