package dev.homing.sim.engine;

import dev.homing.protocol.hashing.BlockHash;
import java.util.ArrayList;
import java.util.List;

/** Test fixture: remembers the KV events an engine emits. */
public final class RecordingSink implements KvEventSink {

    public final List<StoredBlocks> stored = new ArrayList<>();
    public final List<BlockHash> removed = new ArrayList<>();
    /** Model times of {@code onSchedulerStep}: one per step, at its start. */
    public final List<Long> steps = new ArrayList<>();
    public int cleared;

    @Override
    public void onBlockStored(StoredBlocks blocks) {
        stored.add(blocks);
    }

    @Override
    public void onBlockRemoved(BlockHash blockHash) {
        removed.add(blockHash);
    }

    @Override
    public void onAllBlocksCleared() {
        cleared++;
    }

    @Override
    public void onSchedulerStep(long nanos) {
        steps.add(nanos);
    }

    /** Every stored hash, in order. */
    public List<BlockHash> storedHashes() {
        return stored.stream().flatMap(s -> s.blockHashes().stream()).toList();
    }
}
