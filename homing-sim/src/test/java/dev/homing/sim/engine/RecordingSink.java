package dev.homing.sim.engine;

import dev.homing.protocol.hashing.BlockHash;
import java.util.ArrayList;
import java.util.List;

/** Test fixture: remembers the KV events an engine emits. */
public final class RecordingSink implements KvEventSink {

    public record Stored(BlockHash parent, List<BlockHash> hashes, int[] tokens, int blockSize, String lora) {
    }

    public final List<Stored> stored = new ArrayList<>();
    public final List<BlockHash> removed = new ArrayList<>();
    public final List<Long> stepEnds = new ArrayList<>();
    public int cleared;

    @Override
    public void onBlockStored(BlockHash parentHash, List<BlockHash> blockHashes, int[] tokenIds, int blockSize,
            String loraName) {
        stored.add(new Stored(parentHash, blockHashes, tokenIds, blockSize, loraName));
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
    public void onStepEnd(long nanos) {
        stepEnds.add(nanos);
    }

    /** Every stored hash, in order. */
    public List<BlockHash> storedHashes() {
        return stored.stream().flatMap(s -> s.hashes().stream()).toList();
    }
}
