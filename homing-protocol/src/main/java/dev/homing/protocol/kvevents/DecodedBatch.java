package dev.homing.protocol.kvevents;

/**
 * A batch as read from the wire.
 *
 * @param skippedEvents events of a type this decoder does not know (a newer vLLM's), left out of {@code batch}
 */
public record DecodedBatch(KvEventBatch batch, int skippedEvents) {
}
