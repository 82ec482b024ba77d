package dev.homing.protocol.kvevents;

import dev.homing.protocol.hashing.BlockHash;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A block hash as it travels in a KV event: a 64-bit integer or raw digest bytes (vLLM {@code block_hashes},
 * {@code parent_block_hash}). vLLM ≥ 0.10.2 sends the low 64 bits of its digest as an unsigned integer by default
 * ({@code VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES=1}) and the whole digest as bytes when that is {@code 0}; vLLM ≤ 0.10.1
 * sent Python ints, which can be negative. Whatever the form, {@link #asUint64()} is what llm-d keys its index on: the
 * integer's 64 bits, or the last 8 bytes of a digest read big-endian.
 */
public final class EventBlockHash {

    private final long value;
    private final byte[] bytes;

    private EventBlockHash(long value, byte[] bytes) {
        this.value = value;
        this.bytes = bytes;
    }

    /** An integer hash; {@code bits} holds the unsigned 64-bit value (a negative long means ≥ 2^63). */
    public static EventBlockHash ofUint64(long bits) {
        return new EventBlockHash(bits, null);
    }

    /** A digest sent as bytes; copied. */
    public static EventBlockHash ofBytes(byte[] digest) {
        Objects.requireNonNull(digest, "digest");
        return new EventBlockHash(fold(digest), digest.clone());
    }

    /** What vLLM publishes for {@code hash}: its low 64 bits when {@code asInteger}, else its 32-byte digest. */
    public static EventBlockHash of(BlockHash hash, boolean asInteger) {
        return asInteger ? ofUint64(hash.low64()) : new EventBlockHash(hash.low64(), hash.bytes());
    }

    public boolean isBytes() {
        return bytes != null;
    }

    /** The 64-bit key: the integer itself, or the digest's last 8 bytes big-endian (shorter digests zero-extended). */
    public long asUint64() {
        return value;
    }

    /** The digest bytes (a copy), or null for an integer hash. */
    public byte[] bytes() {
        return bytes == null ? null : bytes.clone();
    }

    byte[] bytesUnsafe() {
        return bytes;
    }

    private static long fold(byte[] digest) {
        long v = 0;
        for (int i = Math.max(0, digest.length - 8); i < digest.length; i++) {
            v = (v << 8) | (digest[i] & 0xffL);
        }
        return v;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EventBlockHash other && value == other.value && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(value);
    }

    @Override
    public String toString() {
        return bytes == null ? Long.toUnsignedString(value) : HexFormat.of().formatHex(bytes);
    }
}
