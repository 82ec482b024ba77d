package dev.homing.sim.kvevents;

import dev.homing.protocol.hashing.BlockHash;
import dev.homing.protocol.kvevents.AllBlocksCleared;
import dev.homing.protocol.kvevents.BlockRemoved;
import dev.homing.protocol.kvevents.BlockStored;
import dev.homing.protocol.kvevents.EventBlockHash;
import dev.homing.protocol.kvevents.KvCacheEvent;
import dev.homing.protocol.kvevents.KvEventBatch;
import dev.homing.sim.engine.KvEventSink;
import dev.homing.sim.engine.StoredBlocks;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine's side of KV-event publishing: turns prefix-cache changes into vLLM's events and, at the end of each
 * scheduler step that produced any, hands them on as one {@link KvEventBatch} stamped with the wall clock, as vLLM's
 * scheduler does. Runs on the engine thread and never blocks it: when the handoff refuses a batch (a full queue) the
 * batch is dropped and counted. Sequence numbers start at 0 and are taken when a batch is made, so a dropped batch
 * leaves a gap a subscriber can see (vLLM numbers batches as they are sent, but it never drops: its engine waits).
 */
public final class StepBatcher implements KvEventSink {

    private final boolean intBlockHashes;
    private final int dataParallelRank;
    private final Clock wallClock;
    private final BatchHandoff out;
    private final AtomicLong dropped = new AtomicLong();
    private List<KvCacheEvent> pending = new ArrayList<>();
    private long nextSeq;

    public StepBatcher(KvEventsConfig config, Clock wallClock, BatchHandoff out) {
        this.intBlockHashes = config.intBlockHashes();
        this.dataParallelRank = config.dataParallelRank();
        this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
        this.out = Objects.requireNonNull(out, "out");
    }

    @Override
    public void onBlockStored(StoredBlocks b) {
        List<EventBlockHash> hashes = new ArrayList<>(b.blockHashes().size());
        for (BlockHash h : b.blockHashes()) {
            hashes.add(wire(h));
        }
        pending.add(BlockStored.gpu(hashes, b.parentHash() == null ? null : wire(b.parentHash()), b.tokenIds(),
                b.blockSize(), b.loraId() == 0 ? null : b.loraId(), b.loraName(), b.extraKeys()));
    }

    @Override
    public void onBlockRemoved(BlockHash blockHash) {
        pending.add(BlockRemoved.gpu(wire(blockHash)));
    }

    @Override
    public void onAllBlocksCleared() {
        pending.add(AllBlocksCleared.INSTANCE);
    }

    @Override
    public void onSchedulerStep(long nanos) {
        if (pending.isEmpty()) {
            return;
        }
        Instant now = wallClock.instant();
        KvEventBatch batch = new KvEventBatch(now.getEpochSecond() + now.getNano() / 1e9, pending, dataParallelRank);
        pending = new ArrayList<>();
        if (!out.offer(nextSeq++, batch)) {
            dropped.incrementAndGet();
        }
    }

    /** Batches the handoff refused; safe to read from any thread. */
    public long droppedBatches() {
        return dropped.get();
    }

    private EventBlockHash wire(BlockHash h) {
        return EventBlockHash.of(h, intBlockHashes);
    }
}
