package dev.homing.protocol.hashing;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * One vLLM prefix-cache block hash: the 32-byte SHA-256 digest that chains a block to its whole prefix.
 * Usable as a map key. On the KV-event wire vLLM publishes only {@link #low64()}.
 */
public final class BlockHash {

    public static final int LENGTH = 32;

    private final byte[] digest;
    private final long low64;

    private BlockHash(byte[] digest) {
        this.digest = digest;
        this.low64 = bigEndianLong(digest, LENGTH - 8);
    }

    /** Copies {@code digest}, which must be 32 bytes. */
    public static BlockHash of(byte[] digest) {
        if (digest.length != LENGTH) {
            throw new IllegalArgumentException("a block hash is " + LENGTH + " bytes, got " + digest.length);
        }
        return new BlockHash(digest.clone());
    }

    public static BlockHash ofHex(String hex) {
        return of(HexFormat.of().parseHex(hex));
    }

    /** Takes ownership of a freshly computed digest without copying. */
    static BlockHash wrap(byte[] digest) {
        return new BlockHash(digest);
    }

    /**
     * The last 8 bytes read big-endian: what vLLM publishes in KV events by default
     * ({@code int.from_bytes(digest, "big") & (2**64 - 1)}, {@code VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES=1}).
     */
    public long low64() {
        return low64;
    }

    public byte[] bytes() {
        return digest.clone();
    }

    byte[] bytesUnsafe() {
        return digest;
    }

    public String toHex() {
        return HexFormat.of().formatHex(digest);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BlockHash other && low64 == other.low64 && Arrays.equals(digest, other.digest);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(low64);
    }

    @Override
    public String toString() {
        return toHex();
    }

    private static long bigEndianLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xffL);
        }
        return v;
    }
}
