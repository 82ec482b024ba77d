package dev.homing.protocol.kvevents;

import static dev.homing.protocol.kvevents.Bytes.hex;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.protocol.hashing.BlockHash;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Golden bytes from vllm-wire-formats.md §1.3, written by hand from msgspec's rules. */
class KvEventEncoderTest {

    private static final double TS = 1_767_225_600.25;
    /** The block hash of the real v0.26 event in the notes: above 2^63, so msgpack uint64. */
    private static final long V026_HASH = Long.parseUnsignedLong("15760518052499183552");

    private static byte[] encode(KvEventFormat format, KvCacheEvent... events) {
        return new KvEventEncoder(format).encode(new KvEventBatch(TS, List.of(events), 0));
    }

    /** {@code 93 cb <ts> 9N <events> 00}: the positional batch around the events. */
    private static Bytes batchOf(int events) {
        return Bytes.of().hex("93").float64(TS).hex(Integer.toHexString(0x90 | events));
    }

    @Test
    void legacyClearIsTheSpecsExample() {
        byte[] expected = batchOf(1).hex("91").fixstr("AllBlocksCleared").hex("00").bytes();
        assertThat(hex(encode(KvEventFormat.ARRAY, AllBlocksCleared.INSTANCE))).isEqualTo(hex(expected));
    }

    @Test
    void mapClearCarriesOnlyItsType() {
        byte[] expected = batchOf(1).hex("81").fixstr("type").fixstr("AllBlocksCleared").hex("00").bytes();
        assertThat(hex(encode(KvEventFormat.MAP, AllBlocksCleared.INSTANCE))).isEqualTo(hex(expected));
    }

    @Test
    void mapBlockRemovedIsTheSpecsExample() {
        BlockRemoved removed = BlockRemoved.gpu(EventBlockHash.ofUint64(0xF123_4567_89AB_CDEFL));
        byte[] expected = batchOf(1).hex("84").fixstr("type").fixstr("BlockRemoved").fixstr("block_hashes")
                .hex("91 cf f1 23 45 67 89 ab cd ef").fixstr("medium").fixstr("GPU").fixstr("group_idx").hex("00")
                .hex("00").bytes();
        assertThat(hex(encode(KvEventFormat.MAP, removed))).isEqualTo(hex(expected));
    }

    @Test
    void legacyBlockRemovedHasEveryDeclaredField() {
        BlockRemoved removed = new BlockRemoved(List.of(EventBlockHash.ofUint64(9)), "GPU", null);
        byte[] expected = batchOf(1).hex("94").fixstr("BlockRemoved").hex("91 09").fixstr("GPU").hex("c0")
                .hex("00").bytes();
        assertThat(hex(encode(KvEventFormat.ARRAY, removed))).isEqualTo(hex(expected));
    }

    @Test
    void legacyBlockStoredHasAllElevenFieldsWithNilForNone() {
        BlockStored stored = BlockStored.gpu(List.of(EventBlockHash.ofUint64(7)), null, new int[] {1, 300}, 2,
                null, null, nulls(1));
        byte[] expected = batchOf(1).hex("9c").fixstr("BlockStored")
                .hex("91 07")           // block_hashes
                .hex("c0")              // parent_block_hash
                .hex("92 01 cd 01 2c")  // token_ids
                .hex("02")              // block_size
                .hex("c0")              // lora_id
                .fixstr("GPU")          // medium
                .hex("c0")              // lora_name
                .hex("91 c0")           // extra_keys: one entry per block
                .hex("00")              // group_idx
                .fixstr("full_attention")
                .hex("c0")              // kv_cache_spec_sliding_window
                .hex("00").bytes();
        assertThat(hex(encode(KvEventFormat.ARRAY, stored))).isEqualTo(hex(expected));
    }

    @Test
    void mapBlockStoredHasTheKeysOfTheRealV026EventInItsOrder() {
        BlockStored stored = BlockStored.gpu(List.of(EventBlockHash.ofUint64(V026_HASH)),
                EventBlockHash.ofUint64(3), new int[] {5}, 1, 1, "sql", List.of(List.of("sql", "tenant")));
        byte[] expected = batchOf(1).hex("8b").fixstr("type").fixstr("BlockStored")
                .fixstr("block_hashes").hex("91 cf").hex(longHex(V026_HASH))
                .fixstr("parent_block_hash").hex("03")
                .fixstr("token_ids").hex("91 05")
                .fixstr("block_size").hex("01")
                .fixstr("lora_id").hex("01")
                .fixstr("medium").fixstr("GPU")
                .fixstr("lora_name").fixstr("sql")
                .fixstr("extra_keys").hex("91 92").fixstr("sql").fixstr("tenant")
                .fixstr("group_idx").hex("00")
                .hex("b2").hex(ascii("kv_cache_spec_kind")).fixstr("full_attention")
                .hex("00").bytes();
        assertThat(hex(encode(KvEventFormat.MAP, stored))).isEqualTo(hex(expected));
    }

    @Test
    void mapOmitsDefaultedFieldsButKeepsRequiredNones() {
        BlockStored bare = new BlockStored(List.of(EventBlockHash.ofUint64(1)), null, new int[0], 16, null, null,
                null, null, null, null, null);
        byte[] expected = batchOf(1).hex("88").fixstr("type").fixstr("BlockStored")
                .fixstr("block_hashes").hex("91 01").fixstr("parent_block_hash").hex("c0")
                .fixstr("token_ids").hex("90").fixstr("block_size").hex("10").fixstr("lora_id").hex("c0")
                .fixstr("medium").hex("c0").fixstr("lora_name").hex("c0").hex("00").bytes();
        assertThat(hex(encode(KvEventFormat.MAP, bare))).isEqualTo(hex(expected));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "0, 00", "127, 7f", "128, cc 80", "255, cc ff", "256, cd 01 00", "65535, cd ff ff",
            "65536, ce 00 01 00 00", "4294967295, ce ff ff ff ff", "4294967296, cf 00 00 00 01 00 00 00 00",
            "9223372036854775807, cf 7f ff ff ff ff ff ff ff", "9223372036854775808, cf 80 00 00 00 00 00 00 00",
            "18446744073709551615, cf ff ff ff ff ff ff ff ff"})
    void integerHashesUseTheShortestUnsignedForm(String value, String wire) {
        BlockRemoved r = new BlockRemoved(List.of(EventBlockHash.ofUint64(Long.parseUnsignedLong(value))), null,
                null);
        byte[] expected = batchOf(1).hex("94").fixstr("BlockRemoved").hex("91").hex(wire).hex("c0 c0 00").bytes();
        assertThat(hex(encode(KvEventFormat.ARRAY, r))).isEqualTo(hex(expected));
    }

    @Test
    void digestHashesAreBin8() {
        byte[] digest = new byte[32];
        for (int i = 0; i < 32; i++) {
            digest[i] = (byte) (0xa0 + i);
        }
        EventBlockHash h = EventBlockHash.of(BlockHash.of(digest), false);
        byte[] expected = batchOf(1).hex("94").fixstr("BlockRemoved").hex("91 c4 20").hex(hex(digest))
                .hex("c0 c0 00").bytes();
        assertThat(hex(encode(KvEventFormat.ARRAY, new BlockRemoved(List.of(h), null, null))))
                .isEqualTo(hex(expected));
        assertThat(h.asUint64()).isEqualTo(BlockHash.of(digest).low64());
    }

    @Test
    void theBatchIsAlwaysPositionalAndAnUnsetRankIsNil() {
        byte[] empty = new KvEventEncoder(KvEventFormat.MAP).encode(new KvEventBatch(TS, List.of(), null));
        assertThat(hex(empty)).isEqualTo(hex(Bytes.of().hex("93").float64(TS).hex("90 c0").bytes()));
        byte[] rank = new KvEventEncoder(KvEventFormat.ARRAY).encode(new KvEventBatch(0.0, List.of(), 200));
        assertThat(hex(rank)).isEqualTo("93 cb 00 00 00 00 00 00 00 00 90 cc c8");
    }

    @Test
    void theEncoderCanBeReused() {
        KvEventEncoder encoder = new KvEventEncoder(KvEventFormat.ARRAY);
        byte[] first = encoder.encode(new KvEventBatch(TS, List.of(AllBlocksCleared.INSTANCE), 0));
        encoder.encode(new KvEventBatch(1, List.of(BlockRemoved.gpu(EventBlockHash.ofUint64(1))), 0));
        assertThat(encoder.encode(new KvEventBatch(TS, List.of(AllBlocksCleared.INSTANCE), 0))).isEqualTo(first);
    }

    private static List<List<Object>> nulls(int n) {
        List<List<Object>> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(null);
        }
        return l;
    }

    private static String longHex(long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >>> (56 - 8 * i));
        }
        return hex(b);
    }

    private static String ascii(String s) {
        return hex(s.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

}
