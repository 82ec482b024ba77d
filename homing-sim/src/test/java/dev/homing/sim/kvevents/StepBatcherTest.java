package dev.homing.sim.kvevents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.protocol.hashing.BlockHash;
import dev.homing.protocol.hashing.BlockHasher;
import dev.homing.protocol.kvevents.AllBlocksCleared;
import dev.homing.protocol.kvevents.BlockRemoved;
import dev.homing.protocol.kvevents.BlockStored;
import dev.homing.protocol.kvevents.EventBlockHash;
import dev.homing.protocol.kvevents.KvEventBatch;
import dev.homing.sim.engine.StoredBlocks;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class StepBatcherTest {

    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochSecond(1_767_225_600, 250_000_000),
            ZoneOffset.UTC);
    private static final BlockHasher HASHER = BlockHasher.withPythonHashSeed("42");

    private record Offered(long seq, KvEventBatch batch) {
    }

    private final List<Offered> offered = new ArrayList<>();
    private boolean accept = true;

    private StepBatcher batcher(boolean intHashes) {
        return new StepBatcher(KvEventsConfig.zmq("tcp://*:5557").withIntBlockHashes(intHashes), CLOCK, (seq, b) -> {
            if (accept) {
                offered.add(new Offered(seq, b));
            }
            return accept;
        });
    }

    private static BlockHash hash(int seed) {
        return HASHER.hash(null, new int[] {seed}, 0, 1, null);
    }

    @Test
    void oneBatchPerStepThatChangedSomething() {
        StepBatcher b = batcher(true);
        BlockHash h1 = hash(1);
        BlockHash h2 = hash(2);
        b.onBlockStored(new StoredBlocks(h1, List.of(h2), new int[] {5, 6}, 2, "sql", 3,
                List.of(Arrays.asList("sql", "salt"))));
        b.onBlockRemoved(h1);
        b.onSchedulerStep(10);
        b.onSchedulerStep(20);  // nothing happened: no batch
        b.onAllBlocksCleared();
        b.onSchedulerStep(30);

        assertThat(offered).extracting(Offered::seq).containsExactly(0L, 1L);
        KvEventBatch first = offered.get(0).batch();
        assertThat(first.ts()).isEqualTo(1_767_225_600.25);
        assertThat(first.dataParallelRank()).isZero();
        assertThat(first.events()).containsExactly(
                BlockStored.gpu(List.of(EventBlockHash.ofUint64(h2.low64())), EventBlockHash.ofUint64(h1.low64()),
                        new int[] {5, 6}, 2, 3, "sql", List.of(Arrays.asList("sql", "salt"))),
                BlockRemoved.gpu(EventBlockHash.ofUint64(h1.low64())));
        assertThat(offered.get(1).batch().events()).containsExactly(AllBlocksCleared.INSTANCE);
    }

    @Test
    void bytesHashesAndTheBaseModel() {
        StepBatcher b = batcher(false);
        BlockHash h = hash(7);
        List<List<Object>> keys = new ArrayList<>();
        keys.add(null);
        b.onBlockStored(new StoredBlocks(null, List.of(h), new int[] {1}, 1, null, 0, keys));
        b.onSchedulerStep(1);

        BlockStored s = (BlockStored) offered.getFirst().batch().events().getFirst();
        assertThat(s.blockHashes().getFirst().bytes()).isEqualTo(h.bytes());
        assertThat(s.parentBlockHash()).isNull();
        assertThat(s.loraId()).isNull();
        assertThat(s.loraName()).isNull();
        assertThat(s.extraKeys()).containsExactly((List<Object>) null);
    }

    @Test
    void aRefusedBatchIsCountedAndItsSequenceNumberSkipped() {
        StepBatcher b = batcher(true);
        b.onAllBlocksCleared();
        b.onSchedulerStep(1);
        accept = false;
        b.onAllBlocksCleared();
        b.onSchedulerStep(2);
        accept = true;
        b.onAllBlocksCleared();
        b.onSchedulerStep(3);

        assertThat(b.droppedBatches()).isEqualTo(1);
        assertThat(offered).extracting(Offered::seq).containsExactly(0L, 2L);
    }
}
