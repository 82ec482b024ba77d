package dev.homing.protocol.kvevents;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import org.msgpack.core.ExtensionTypeHeader;
import org.msgpack.core.MessageFormat;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ValueType;

/**
 * Reads a KV-event payload from any vLLM version, tolerantly (vllm-wire-formats.md §1.3, §1.4, §7):
 * <ul>
 *   <li>the batch as the positional array {@code [ts, events, data_parallel_rank?]} or as a map with those keys;</li>
 *   <li>events as tagged arrays ({@code ["BlockStored", ...]}, read by position) or maps keyed by {@code "type"};
 *       trailing fields an older vLLM did not send read as null, fields a newer one added are ignored;</li>
 *   <li>hashes as signed or unsigned 64-bit integers or as bytes (see {@link EventBlockHash#asUint64()});</li>
 *   <li>event types it does not know are skipped and counted in {@link DecodedBatch#skippedEvents()}.</li>
 * </ul>
 * Anything else (not msgpack, truncated, a field of the wrong type, lengths beyond the payload, trailing bytes) is a
 * {@link KvEventFormatException}; nothing the sender writes can make it throw anything else or allocate more than a
 * small multiple of the payload.
 */
public final class KvEventDecoder {

    private static final int MAX_DEPTH = 16;

    private KvEventDecoder() {
    }

    public static DecodedBatch decode(byte[] payload) throws KvEventFormatException {
        Object root;
        try (MessageUnpacker u = MessagePack.newDefaultUnpacker(payload)) {
            Reader reader = new Reader(u, payload.length);
            root = reader.read(0);
            if (u.hasNext()) {
                throw new KvEventFormatException("trailing bytes after the batch, at offset " + u.getTotalReadBytes()
                        + " of " + payload.length);
            }
        } catch (IOException | RuntimeException e) {
            // msgpack-core reports truncation and bad headers with its own unchecked exceptions.
            throw new KvEventFormatException("not a msgpack value: " + e, e);
        }
        return batch(root);
    }

    private static DecodedBatch batch(Object root) throws KvEventFormatException {
        Object ts;
        Object events;
        Object rank;
        if (root instanceof List<?> l) {
            ts = at(l, 0);
            events = at(l, 1);
            rank = at(l, 2);
        } else if (root instanceof Map<?, ?> m) {
            ts = m.get("ts");
            events = m.get("events");
            rank = m.get("data_parallel_rank");
        } else {
            throw new KvEventFormatException("a batch is an array or a map, got " + describe(root));
        }
        double t;
        if (ts instanceof Double d) {
            t = d;
        } else if (ts instanceof Long l) {
            t = l;
        } else {
            throw new KvEventFormatException("batch ts must be a number, got " + describe(ts));
        }
        if (!(events instanceof List<?> list)) {
            throw new KvEventFormatException("batch events must be an array, got " + describe(events));
        }
        List<KvCacheEvent> out = new ArrayList<>(list.size());
        int skipped = 0;
        for (int i = 0; i < list.size(); i++) {
            KvCacheEvent e = event(list.get(i), i);
            if (e == null) {
                skipped++;
            } else {
                out.add(e);
            }
        }
        return new DecodedBatch(new KvEventBatch(t, out, optionalInt(rank, "data_parallel_rank")), skipped);
    }

    /** The event, or null when its type is unknown. */
    private static KvCacheEvent event(Object e, int index) throws KvEventFormatException {
        Fields f;
        String tag;
        if (e instanceof List<?> l) {
            if (l.isEmpty() || !(l.getFirst() instanceof String s)) {
                throw new KvEventFormatException("event " + index + " is an array without a type tag");
            }
            tag = s;
            f = (name, position) -> at(l, position);
        } else if (e instanceof Map<?, ?> m) {
            if (!(m.get("type") instanceof String s)) {
                throw new KvEventFormatException("event " + index + " is a map without a \"type\" string");
            }
            tag = s;
            f = (name, position) -> m.get(name);
        } else {
            throw new KvEventFormatException("event " + index + " is neither an array nor a map: " + describe(e));
        }
        String where = tag + " (event " + index + ")";
        try {
            return switch (tag) {
                case BlockStored.TAG -> new BlockStored(
                        hashes(f.get("block_hashes", 1), "block_hashes"),
                        optionalHash(f.get("parent_block_hash", 2)),
                        tokens(f.get("token_ids", 3)),
                        orZero(optionalInt(f.get("block_size", 4), "block_size")),
                        optionalInt(f.get("lora_id", 5), "lora_id"),
                        optionalString(f.get("medium", 6), "medium"),
                        optionalString(f.get("lora_name", 7), "lora_name"),
                        extraKeys(f.get("extra_keys", 8)),
                        optionalInt(f.get("group_idx", 9), "group_idx"),
                        optionalString(f.get("kv_cache_spec_kind", 10), "kv_cache_spec_kind"),
                        optionalInt(f.get("kv_cache_spec_sliding_window", 11), "kv_cache_spec_sliding_window"));
                case BlockRemoved.TAG -> new BlockRemoved(
                        hashes(f.get("block_hashes", 1), "block_hashes"),
                        optionalString(f.get("medium", 2), "medium"),
                        optionalInt(f.get("group_idx", 3), "group_idx"));
                case AllBlocksCleared.TAG -> AllBlocksCleared.INSTANCE;
                default -> null;
            };
        } catch (KvEventFormatException ex) {
            throw new KvEventFormatException(where + ": " + ex.getMessage(), ex);
        }
    }

    /** A field of an event by name (map form) or by position after the tag (array form); null when absent. */
    private interface Fields {
        Object get(String name, int position);
    }

    private static List<EventBlockHash> hashes(Object v, String field) throws KvEventFormatException {
        if (!(v instanceof List<?> list)) {
            throw new KvEventFormatException(field + " must be an array, got " + describe(v));
        }
        List<EventBlockHash> out = new ArrayList<>(list.size());
        if (list instanceof Integers ints) {
            for (long h : ints.values) {
                out.add(EventBlockHash.ofUint64(h));
            }
            return out;
        }
        for (Object h : list) {
            EventBlockHash hash = optionalHash(h);
            if (hash == null) {
                throw new KvEventFormatException(field + " must not contain nil");
            }
            out.add(hash);
        }
        return out;
    }

    private static EventBlockHash optionalHash(Object v) throws KvEventFormatException {
        return switch (v) {
            case null -> null;
            case Long l -> EventBlockHash.ofUint64(l);
            case byte[] b -> EventBlockHash.ofBytes(b);
            default -> throw new KvEventFormatException("a block hash must be an integer or bytes, got "
                    + describe(v));
        };
    }

    private static int[] tokens(Object v) throws KvEventFormatException {
        if (v == null) {
            return new int[0];
        }
        if (!(v instanceof List<?> list)) {
            throw new KvEventFormatException("token_ids must be an array, got " + describe(v));
        }
        int[] out = new int[list.size()];
        if (list instanceof Integers ints) {
            for (int i = 0; i < out.length; i++) {
                long t = ints.values[i];
                if (t < Integer.MIN_VALUE || t > Integer.MAX_VALUE) {
                    throw new KvEventFormatException("token_ids[" + i + "] must be a 32-bit integer, got " + t);
                }
                out[i] = (int) t;
            }
            return out;
        }
        for (int i = 0; i < out.length; i++) {
            out[i] = toInt(list.get(i), "token_ids[" + i + "]");
        }
        return out;
    }

    private static List<List<Object>> extraKeys(Object v) throws KvEventFormatException {
        if (v == null) {
            return null;
        }
        if (!(v instanceof List<?> list)) {
            throw new KvEventFormatException("extra_keys must be an array, got " + describe(v));
        }
        List<List<Object>> out = new ArrayList<>(list.size());
        for (Object block : list) {
            if (block == null) {
                out.add(null);
            } else if (block instanceof List<?> keys) {
                out.add(Collections.unmodifiableList(new ArrayList<>(keys)));
            } else {
                out.add(Collections.singletonList(block)); // a lone key instead of a tuple of one
            }
        }
        return out;
    }

    private static Integer optionalInt(Object v, String field) throws KvEventFormatException {
        return v == null ? null : toInt(v, field);
    }

    private static int toInt(Object v, String field) throws KvEventFormatException {
        if (v instanceof Long l && l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) {
            return (int) (long) l;
        }
        throw new KvEventFormatException(field + " must be a 32-bit integer, got " + describe(v));
    }

    private static int orZero(Integer v) {
        return v == null ? 0 : v;
    }

    private static String optionalString(Object v, String field) throws KvEventFormatException {
        if (v == null || v instanceof String) {
            return (String) v;
        }
        throw new KvEventFormatException(field + " must be a string or nil, got " + describe(v));
    }

    private static Object at(List<?> list, int i) {
        return i < list.size() ? list.get(i) : null;
    }

    private static String describe(Object v) {
        return switch (v) {
            case null -> "nil";
            case List<?> l -> "an array of " + l.size();
            case Map<?, ?> m -> "a map of " + m.size();
            case byte[] b -> b.length + " bytes";
            case String s -> "the string '" + (s.length() > 40 ? s.substring(0, 40) + "…" : s) + "'";
            default -> v.getClass().getSimpleName() + " " + v;
        };
    }

    /**
     * msgpack to plain Java values (null, Boolean, Long holding the 64 bits of any integer, Double, String,
     * byte[], List, Map), refusing lengths the remaining payload cannot hold and nesting beyond {@link #MAX_DEPTH}.
     */
    private static final class Reader {
        private final MessageUnpacker u;
        private final long size;

        Reader(MessageUnpacker u, long size) {
            this.u = u;
            this.size = size;
        }

        /** An integer of this format; a uint64 ≥ 2^63 does not fit a signed long, so its low 64 bits are kept. */
        private long integer(MessageFormat format) throws IOException {
            return format == MessageFormat.UINT64 ? u.unpackBigInteger().longValue() : u.unpackLong();
        }

        Object read(int depth) throws IOException, KvEventFormatException {
            if (depth > MAX_DEPTH) {
                throw new KvEventFormatException("values nested deeper than " + MAX_DEPTH);
            }
            MessageFormat format = u.getNextFormat();
            switch (format.getValueType()) {
                case NIL -> {
                    u.unpackNil();
                    return null;
                }
                case BOOLEAN -> {
                    return u.unpackBoolean();
                }
                case INTEGER -> {
                    return integer(format);
                }
                case FLOAT -> {
                    return u.unpackDouble();
                }
                case STRING -> {
                    int n = length(u.unpackRawStringHeader(), 1);
                    return new String(u.readPayload(n), StandardCharsets.UTF_8);
                }
                case BINARY -> {
                    return u.readPayload(length(u.unpackBinaryHeader(), 1));
                }
                case ARRAY -> {
                    int n = length(u.unpackArrayHeader(), 1);
                    // Token ids and block hashes are arrays of integers: kept unboxed until something else turns up.
                    long[] ints = new long[n];
                    int k = 0;
                    while (k < n && u.getNextFormat().getValueType() == ValueType.INTEGER) {
                        ints[k++] = integer(u.getNextFormat());
                    }
                    if (k == n) {
                        return new Integers(ints);
                    }
                    List<Object> list = new ArrayList<>(n);
                    for (int i = 0; i < k; i++) {
                        list.add(ints[i]);
                    }
                    for (int i = k; i < n; i++) {
                        list.add(read(depth + 1));
                    }
                    return list;
                }
                case MAP -> {
                    int n = length(u.unpackMapHeader(), 2);
                    Map<Object, Object> map = LinkedHashMap.newLinkedHashMap(n);
                    for (int i = 0; i < n; i++) {
                        Object key = read(depth + 1);
                        map.put(key instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : key,
                                read(depth + 1));
                    }
                    return map;
                }
                case EXTENSION -> {
                    ExtensionTypeHeader h = u.unpackExtensionTypeHeader();
                    return u.readPayload(length(h.getLength(), 1));
                }
                default -> throw new KvEventFormatException("unsupported msgpack format " + format);
            }
        }

        /** A declared length, if the bytes left can hold that many items of at least {@code minBytes} each. */
        private int length(int n, int minBytes) throws KvEventFormatException {
            long left = size - u.getTotalReadBytes();
            if (n < 0 || (long) n * minBytes > left) {
                throw new KvEventFormatException("a length of " + Integer.toUnsignedString(n) + " at offset "
                        + u.getTotalReadBytes() + " exceeds the " + left + " bytes left");
            }
            return n;
        }
    }

    /** A msgpack array of integers, unboxed; a read-only list of {@code Long} to everything else. */
    private static final class Integers extends AbstractList<Object> implements RandomAccess {
        final long[] values;

        Integers(long[] values) {
            this.values = values;
        }

        @Override
        public Object get(int index) {
            return values[index];
        }

        @Override
        public int size() {
            return values.length;
        }
    }
}
