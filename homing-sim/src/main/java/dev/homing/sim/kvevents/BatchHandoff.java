package dev.homing.sim.kvevents;

import dev.homing.protocol.kvevents.KvEventBatch;

/** Where a step's batch goes once it is complete: to a publisher thread, or a test. Must not block. */
@FunctionalInterface
public interface BatchHandoff {

    /** Takes the batch with sequence number {@code seq}, or returns false when it cannot (a full queue). */
    boolean offer(long seq, KvEventBatch batch);
}
