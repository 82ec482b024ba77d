package dev.homing.protocol.kvevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;

class KvEventDecoderTest {

    private static final EventBlockHash H1 = EventBlockHash.ofUint64(Long.parseUnsignedLong("15760518052499183552"));
    private static final EventBlockHash H2 = EventBlockHash.ofUint64(42);

    /** A msgpack writer for payloads other vLLM versions (or broken senders) produce. */
    private interface Body {
        void write(MessageBufferPacker p) throws IOException;
    }

    private static byte[] pack(Body body) throws IOException {
        MessageBufferPacker p = MessagePack.newDefaultBufferPacker();
        body.write(p);
        return p.toByteArray();
    }

    @ParameterizedTest
    @EnumSource(KvEventFormat.class)
    void readsWhatTheEncoderWrites(KvEventFormat format) throws Exception {
        BlockStored stored = BlockStored.gpu(List.of(H1, H2), EventBlockHash.ofUint64(7), new int[] {1, 2, 3, 4}, 2,
                3, "adapter", List.of(Arrays.asList("adapter", "salt"), List.of("adapter")));
        KvEventBatch batch = new KvEventBatch(1.5, List.of(stored, BlockRemoved.gpu(H2), AllBlocksCleared.INSTANCE),
                0);

        DecodedBatch decoded = KvEventDecoder.decode(new KvEventEncoder(format).encode(batch));

        assertThat(decoded.batch()).isEqualTo(batch);
        assertThat(decoded.skippedEvents()).isZero();
    }

    @Test
    void readsTheBatchAsAMap() throws Exception {
        byte[] payload = pack(p -> {
            p.packMapHeader(3);
            p.packString("ts").packDouble(2.5);
            p.packString("events").packArrayHeader(1).packMapHeader(1).packString("type")
                    .packString("AllBlocksCleared");
            p.packString("data_parallel_rank").packInt(3);
        });
        KvEventBatch batch = KvEventDecoder.decode(payload).batch();
        assertThat(batch.ts()).isEqualTo(2.5);
        assertThat(batch.events()).containsExactly(AllBlocksCleared.INSTANCE);
        assertThat(batch.dataParallelRank()).isEqualTo(3);
    }

    @Test
    void readsTheShortArraysOfVllm09AndAnIntegerTimestampWithoutRank() throws Exception {
        // v0.9: block_hashes, parent_block_hash, token_ids, block_size, lora_id; no medium yet; batch of two.
        byte[] payload = pack(p -> {
            p.packArrayHeader(2).packLong(1_700_000_000L).packArrayHeader(2);
            p.packArrayHeader(6).packString("BlockStored").packArrayHeader(1).packLong(-5).packNil()
                    .packArrayHeader(2).packInt(9).packInt(10).packInt(2).packNil();
            p.packArrayHeader(2).packString("BlockRemoved").packArrayHeader(1).packLong(-5);
        });
        KvEventBatch batch = KvEventDecoder.decode(payload).batch();
        assertThat(batch.ts()).isEqualTo(1.7e9);
        assertThat(batch.dataParallelRank()).isNull();
        BlockStored s = (BlockStored) batch.events().get(0);
        assertThat(s.blockHashes()).containsExactly(EventBlockHash.ofUint64(-5));
        assertThat(s.blockHashes().getFirst().asUint64()).isEqualTo(0xFFFF_FFFF_FFFF_FFFBL);
        assertThat(s.tokenIds()).containsExactly(9, 10);
        assertThat(s.medium()).isNull();
        assertThat(s.extraKeys()).isNull();
        assertThat(s.groupIdx()).isNull();
        assertThat(((BlockRemoved) batch.events().get(1)).medium()).isNull();
    }

    @Test
    void integerArraysAreReadUnboxedAndStillChecked() throws Exception {
        // hashes all integers (one a uint64 ≥ 2^63), tokens all integers: the unboxed path
        byte[] ok = pack(p -> p.packArrayHeader(2).packDouble(1).packArrayHeader(1).packArrayHeader(6)
                .packString("BlockStored").packArrayHeader(2).packLong(7)
                .packBigInteger(new java.math.BigInteger("18446744073709551615")).packNil()
                .packArrayHeader(4).packInt(1).packInt(2).packInt(3).packInt(70_000).packInt(2).packNil());
        BlockStored s = (BlockStored) KvEventDecoder.decode(ok).batch().events().get(0);
        assertThat(s.blockHashes()).containsExactly(EventBlockHash.ofUint64(7), EventBlockHash.ofUint64(-1));
        assertThat(s.tokenIds()).containsExactly(1, 2, 3, 70_000);
        // a token past 32 bits is refused by name, as on the boxed path
        byte[] wide = pack(p -> p.packArrayHeader(2).packDouble(1).packArrayHeader(1).packArrayHeader(6)
                .packString("BlockStored").packArrayHeader(1).packLong(7).packNil()
                .packArrayHeader(2).packInt(1).packLong(1L << 40).packInt(2).packNil());
        assertThatThrownBy(() -> KvEventDecoder.decode(wide)).isInstanceOf(KvEventFormatException.class)
                .hasMessageContaining("token_ids[1]");
        // an array that mixes integers and bytes falls back to the general path
        byte[] mixed = pack(p -> p.packArrayHeader(2).packDouble(1).packArrayHeader(1).packArrayHeader(2)
                .packString("BlockRemoved").packArrayHeader(2).packLong(7).packBinaryHeader(2)
                .writePayload(new byte[] {1, 2}));
        BlockRemoved r = (BlockRemoved) KvEventDecoder.decode(mixed).batch().events().get(0);
        assertThat(r.blockHashes()).hasSize(2).first().isEqualTo(EventBlockHash.ofUint64(7));
    }

    @Test
    void ignoresFieldsANewerVllmAdds() throws Exception {
        byte[] payload = pack(p -> {
            p.packArrayHeader(3).packDouble(1).packArrayHeader(2);
            // v0.28's locality after the eleven fields, and one more for good measure.
            p.packArrayHeader(14).packString("BlockStored").packArrayHeader(1).packInt(1).packNil()
                    .packArrayHeader(1).packInt(4).packInt(1).packNil().packString("GPU").packNil()
                    .packArrayHeader(1).packNil().packInt(0).packString("full_attention").packNil()
                    .packString("local").packInt(99);
            p.packMapHeader(5).packString("type").packString("BlockRemoved").packString("block_hashes")
                    .packArrayHeader(1).packInt(1).packString("medium").packString("CPU").packString("locality")
                    .packString("remote").packString("group_idx").packInt(1);
            p.packInt(0);
        });
        List<KvCacheEvent> events = KvEventDecoder.decode(payload).batch().events();
        assertThat(((BlockStored) events.get(0)).kvCacheSpecKind()).isEqualTo("full_attention");
        assertThat(events.get(1)).isEqualTo(new BlockRemoved(List.of(EventBlockHash.ofUint64(1)), "CPU", 1));
    }

    @Test
    void foldsByteHashesToTheirLastEightBytes() throws Exception {
        byte[] sha = HexFormat.of().parseHex("00112233445566778899aabbccddeeff0011223344556677f0e1d2c3b4a59687");
        byte[] xxh = HexFormat.of().parseHex("0102030405060708090a0b0c0d0e0f10");
        byte[] payload = pack(p -> {
            p.packArrayHeader(3).packDouble(1).packArrayHeader(1);
            p.packArrayHeader(4).packString("BlockRemoved").packArrayHeader(3);
            p.packBinaryHeader(32).writePayload(sha);
            p.packBinaryHeader(16).writePayload(xxh);
            p.packBinaryHeader(2).writePayload(new byte[] {1, 2});
            p.packString("GPU").packInt(0);
            p.packInt(0);
        });
        List<EventBlockHash> hashes = ((BlockRemoved) KvEventDecoder.decode(payload).batch().events().getFirst())
                .blockHashes();
        assertThat(hashes.get(0).asUint64()).isEqualTo(0xf0e1d2c3b4a59687L);
        assertThat(hashes.get(0).bytes()).isEqualTo(sha);
        assertThat(hashes.get(1).asUint64()).isEqualTo(0x090a0b0c0d0e0f10L);
        assertThat(hashes.get(2).asUint64()).isEqualTo(0x0102L);
    }

    @Test
    void skipsAndCountsEventTypesItDoesNotKnow() throws Exception {
        byte[] payload = pack(p -> {
            p.packArrayHeader(3).packDouble(1).packArrayHeader(3);
            p.packArrayHeader(2).packString("BlocksMigrated").packInt(1);
            p.packArrayHeader(1).packString("AllBlocksCleared");
            p.packMapHeader(2).packString("type").packString("Defragmented").packString("n").packInt(3);
            p.packInt(0);
        });
        DecodedBatch decoded = KvEventDecoder.decode(payload);
        assertThat(decoded.batch().events()).containsExactly(AllBlocksCleared.INSTANCE);
        assertThat(decoded.skippedEvents()).isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "",                                  // nothing
        "93 cb 00 00",                       // truncated float
        "2a",                                // a bare integer
        "93 cb 00 00 00 00 00 00 00 00 2a 00",            // events not an array
        "93 a1 78 90 00",                                 // ts a string
        "93 cb 00 00 00 00 00 00 00 00 90 00 00",         // trailing bytes
        "93 cb 00 00 00 00 00 00 00 00 dd 7f ff ff ff",   // two billion events claimed
        "93 cb 00 00 00 00 00 00 00 00 da ff ff",         // a 65535-byte string claimed
        "93 cb 00 00 00 00 00 00 00 00 91 91 2a 00",      // event array without a tag
        "93 cb 00 00 00 00 00 00 00 00 91 81 a1 78 01 00",                  // event map without a type
        "93 cb 00 00 00 00 00 00 00 00 91 92 ac 426c6f636b52656d6f766564 c0 00",  // BlockRemoved without hashes
        "93 cb 00 00 00 00 00 00 00 00 91 92 ac 426c6f636b52656d6f766564 91 a1 78 00",  // a string hash
        "93 cb 00 00 00 00 00 00 00 00 91 93 ac 426c6f636b52656d6f766564 91 01 2a 00",  // medium an integer
        "93 cb 00 00 00 00 00 00 00 00 91 95 ab 426c6f636b53746f726564 91 01 c0 90 a1 78 00",  // block_size text
        "93 cb 00 00 00 00 00 00 00 00 91 95 ab 426c6f636b53746f726564 91 01 c0 90 cf 00 00 00 01 00 00 00 00 00",
        "c1"                                 // the one never-used msgpack byte
    })
    void malformedPayloadsAreCheckedExceptions(String hex) {
        byte[] payload = HexFormat.of().parseHex(hex.replace(" ", ""));
        assertThatThrownBy(() -> KvEventDecoder.decode(payload)).isInstanceOf(KvEventFormatException.class);
    }

    @Test
    void deepNestingIsRefused() {
        byte[] payload = new byte[40];
        Arrays.fill(payload, (byte) 0x91);
        payload[39] = 0;
        assertThatThrownBy(() -> KvEventDecoder.decode(payload)).isInstanceOf(KvEventFormatException.class)
                .hasMessageContaining("nested");
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    void randomCorruptionNeverEscapesAsAnythingElse(long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        BlockStored stored = BlockStored.gpu(List.of(H1, H2), null, new int[] {1, 2, 3, 4}, 2, null, null,
                Arrays.asList(null, null));
        byte[] good = new KvEventEncoder(rng.nextBoolean() ? KvEventFormat.ARRAY : KvEventFormat.MAP)
                .encode(new KvEventBatch(1, List.of(stored, BlockRemoved.gpu(H1)), 0));
        for (int i = 0; i < 200; i++) {
            byte[] bad = good.clone();
            int flips = 1 + rng.nextInt(3);
            for (int f = 0; f < flips; f++) {
                bad[rng.nextInt(bad.length)] = (byte) rng.nextInt(256);
            }
            byte[] cut = Arrays.copyOf(bad, rng.nextInt(bad.length + 1));
            for (byte[] payload : List.of(bad, cut)) {
                try {
                    KvEventDecoder.decode(payload);
                } catch (KvEventFormatException expected) {
                    // the contract: a checked exception, never a runtime one
                }
            }
        }
    }
}
