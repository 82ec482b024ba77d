package dev.homing.protocol.kvevents;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;

/**
 * Writes a {@link KvEventBatch} byte for byte as vLLM's {@code msgspec.msgpack.Encoder} does: the batch as the
 * positional array {@code [ts, events, data_parallel_rank]}, events in the chosen {@link KvEventFormat}, integers in
 * their shortest form (unsigned formats for non-negative values, {@code cf} for hashes ≥ 2^63), {@code ts} always as a
 * float64 ({@code cb}), strings as fixstr/str8/str16, digests as bin8.
 *
 * <p>Not thread-safe: it reuses one buffer. Create one per publishing thread.
 */
public final class KvEventEncoder {

    private static final int UINT64 = 0xcf;

    private final KvEventFormat format;
    private final MessageBufferPacker packer = MessagePack.newDefaultBufferPacker();
    private final byte[] uint64 = new byte[9]; // scratch for one uint64 hash; the packer copies it

    public KvEventEncoder(KvEventFormat format) {
        this.format = Objects.requireNonNull(format, "format");
    }

    public KvEventFormat format() {
        return format;
    }

    /** The msgpack payload of one batch (the third ZMQ frame). */
    public byte[] encode(KvEventBatch batch) {
        packer.clear();
        try {
            packer.packArrayHeader(3);
            packer.packDouble(batch.ts());
            packer.packArrayHeader(batch.events().size());
            for (KvCacheEvent e : batch.events()) {
                switch (e) {
                    case BlockStored s -> blockStored(s);
                    case BlockRemoved r -> blockRemoved(r);
                    case AllBlocksCleared c -> allBlocksCleared();
                }
            }
            integerOrNil(batch.dataParallelRank());
            return packer.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory failed", e);
        }
    }

    private void blockStored(BlockStored s) throws IOException {
        boolean map = format == KvEventFormat.MAP;
        if (map) {
            // The four trailing fields default to None, and msgspec omits a default-valued field from a map.
            int size = 8 + present(s.extraKeys()) + present(s.groupIdx()) + present(s.kvCacheSpecKind())
                    + present(s.kvCacheSpecSlidingWindow());
            packer.packMapHeader(size);
            tag(BlockStored.TAG);
        } else {
            packer.packArrayHeader(12);
            packer.packString(BlockStored.TAG);
        }
        key("block_hashes");
        hashes(s.blockHashes());
        key("parent_block_hash");
        if (s.parentBlockHash() == null) {
            packer.packNil();
        } else {
            hash(s.parentBlockHash());
        }
        key("token_ids");
        int[] tokens = s.tokenIdsUnsafe();
        packer.packArrayHeader(tokens.length);
        for (int t : tokens) {
            packer.packInt(t);
        }
        key("block_size");
        packer.packInt(s.blockSize());
        key("lora_id");
        integerOrNil(s.loraId());
        key("medium");
        stringOrNil(s.medium());
        key("lora_name");
        stringOrNil(s.loraName());
        if (!map || s.extraKeys() != null) {
            key("extra_keys");
            if (s.extraKeys() == null) {
                packer.packNil();
            } else {
                packer.packArrayHeader(s.extraKeys().size());
                for (List<Object> block : s.extraKeys()) {
                    value(block);
                }
            }
        }
        if (!map || s.groupIdx() != null) {
            key("group_idx");
            integerOrNil(s.groupIdx());
        }
        if (!map || s.kvCacheSpecKind() != null) {
            key("kv_cache_spec_kind");
            stringOrNil(s.kvCacheSpecKind());
        }
        if (!map || s.kvCacheSpecSlidingWindow() != null) {
            key("kv_cache_spec_sliding_window");
            integerOrNil(s.kvCacheSpecSlidingWindow());
        }
    }

    private void blockRemoved(BlockRemoved r) throws IOException {
        boolean map = format == KvEventFormat.MAP;
        if (map) {
            packer.packMapHeader(3 + present(r.groupIdx()));
            tag(BlockRemoved.TAG);
        } else {
            packer.packArrayHeader(4);
            packer.packString(BlockRemoved.TAG);
        }
        key("block_hashes");
        hashes(r.blockHashes());
        key("medium");
        stringOrNil(r.medium());
        if (!map || r.groupIdx() != null) {
            key("group_idx");
            integerOrNil(r.groupIdx());
        }
    }

    private void allBlocksCleared() throws IOException {
        if (format == KvEventFormat.MAP) {
            packer.packMapHeader(1);
            tag(AllBlocksCleared.TAG);
        } else {
            packer.packArrayHeader(1);
            packer.packString(AllBlocksCleared.TAG);
        }
    }

    private void tag(String name) throws IOException {
        packer.packString("type");
        packer.packString(name);
    }

    /** A field name: written in map form only; the array form is positional. */
    private void key(String name) throws IOException {
        if (format == KvEventFormat.MAP) {
            packer.packString(name);
        }
    }

    private void hashes(List<EventBlockHash> hashes) throws IOException {
        packer.packArrayHeader(hashes.size());
        for (EventBlockHash h : hashes) {
            hash(h);
        }
    }

    private void hash(EventBlockHash h) throws IOException {
        if (h.isBytes()) {
            byte[] b = h.bytesUnsafe();
            packer.packBinaryHeader(b.length);
            packer.writePayload(b);
        } else if (h.asUint64() < 0) {
            // ≥ 2^63: a Java long would come out as a negative int64; Python ints this large are msgpack uint64.
            long v = h.asUint64();
            byte[] b = uint64;
            b[0] = (byte) UINT64;
            for (int i = 0; i < 8; i++) {
                b[1 + i] = (byte) (v >>> (56 - 8 * i));
            }
            packer.writePayload(b); // copies: the scratch array is free again
        } else {
            packer.packLong(h.asUint64());
        }
    }

    private void integerOrNil(Integer v) throws IOException {
        if (v == null) {
            packer.packNil();
        } else {
            packer.packInt(v);
        }
    }

    private void stringOrNil(String v) throws IOException {
        if (v == null) {
            packer.packNil();
        } else {
            packer.packString(v);
        }
    }

    /** Extra keys: tuples of strings, integers or bytes, nested at will (multimodal ids are tuples). */
    private void value(Object v) throws IOException {
        switch (v) {
            case null -> packer.packNil();
            case String s -> packer.packString(s);
            case Integer i -> packer.packInt(i);
            case Long l -> packer.packLong(l);
            case Boolean b -> packer.packBoolean(b);
            case Double d -> packer.packDouble(d);
            case byte[] b -> {
                packer.packBinaryHeader(b.length);
                packer.writePayload(b);
            }
            case List<?> list -> {
                packer.packArrayHeader(list.size());
                for (Object item : list) {
                    value(item);
                }
            }
            default -> throw new IllegalArgumentException("an extra key cannot be " + v.getClass().getName());
        }
    }

    private static int present(Object v) {
        return v == null ? 0 : 1;
    }
}
