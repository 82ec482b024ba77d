package dev.homing.protocol.hashing;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * vLLM's prefix-cache block hash with {@code --prefix-caching-hash-algo sha256_cbor}
 * ({@code vllm/v1/core/kv_cache_utils.py}, {@code hash_block_tokens}):
 * {@code sha256(cbor([parent digest or NONE_HASH, [token ids...], extra keys or None]))}, chained on the full parent digest.
 *
 * <p>{@code NONE_HASH}, the parent of a request's first block, is {@code sha256(cbor(seed))} where the seed is the
 * <em>string</em> value of {@code PYTHONHASHSEED}; when that is unset vLLM draws 32 random bytes per process, so its hashes
 * are not reproducible across pods ({@link #withRandomSeed}).
 *
 * <p>Not thread-safe: it reuses one digest and one CBOR buffer so hashing allocates only the result.
 */
public final class BlockHasher {

    private final MessageDigest sha256;
    private final CanonicalCbor cbor = new CanonicalCbor(256);
    private final BlockHash noneHash;

    private BlockHasher(byte[] noneHash) {
        this.sha256 = newSha256();
        this.noneHash = BlockHash.wrap(noneHash);
    }

    /** As vLLM with {@code PYTHONHASHSEED=seed}: {@code NONE_HASH = sha256(cbor(seed))}. */
    public static BlockHasher withPythonHashSeed(String seed) {
        Objects.requireNonNull(seed, "seed");
        byte[] input = new CanonicalCbor().writeText(seed).toByteArray();
        return new BlockHasher(newSha256().digest(input));
    }

    /** As vLLM without {@code PYTHONHASHSEED}: {@code NONE_HASH} is 32 random bytes, here drawn from {@code rng}. */
    public static BlockHasher withRandomSeed(RandomGenerator rng) {
        byte[] none = new byte[BlockHash.LENGTH];
        for (int i = 0; i < none.length; i += 8) {
            long r = rng.nextLong();
            for (int j = 0; j < 8; j++) {
                none[i + j] = (byte) (r >>> (56 - 8 * j));
            }
        }
        return new BlockHasher(none);
    }

    /** A fresh hasher with the same {@code NONE_HASH}, for another thread. */
    public BlockHasher copy() {
        return new BlockHasher(noneHash.bytesUnsafe());
    }

    public BlockHash noneHash() {
        return noneHash;
    }

    /**
     * The hash of the block holding {@code tokens[from, to)}.
     *
     * @param parent the previous block's hash, or null for the first block (then {@code NONE_HASH} is used)
     * @param extraKeys the block's extra keys, or null when it has none (see {@link #extraKeys})
     */
    public BlockHash hash(BlockHash parent, int[] tokens, int from, int to, List<?> extraKeys) {
        encode(parent, tokens, from, to, extraKeys);
        sha256.update(cbor.buffer(), 0, cbor.size());
        return BlockHash.wrap(sha256.digest());
    }

    /** The exact bytes {@link #hash} feeds to SHA-256; for cross-language tests and diagnostics. */
    public byte[] hashInput(BlockHash parent, int[] tokens, int from, int to, List<?> extraKeys) {
        encode(parent, tokens, from, to, extraKeys);
        return cbor.toByteArray();
    }

    /**
     * The extra keys vLLM mixes into a block's hash, in its order ({@code generate_block_hash_extra_keys}):
     * the LoRA adapter name on every block, then {@code cache_salt} on the block that starts at token 0 only.
     * Multimodal and prompt-embedding keys are not modelled. Returns null when there are none, as vLLM does.
     */
    public static List<Object> extraKeys(String loraName, String cacheSalt, boolean firstBlock) {
        boolean salt = firstBlock && cacheSalt != null;
        if (loraName == null && !salt) {
            return null;
        }
        List<Object> keys = new ArrayList<>(2);
        if (loraName != null) {
            keys.add(loraName);
        }
        if (salt) {
            keys.add(cacheSalt);
        }
        return List.copyOf(keys);
    }

    private void encode(BlockHash parent, int[] tokens, int from, int to, List<?> extraKeys) {
        Objects.checkFromToIndex(from, to, tokens.length);
        cbor.reset().startArray(3);
        cbor.writeBytes((parent == null ? noneHash : parent).bytesUnsafe());
        cbor.startArray(to - from);
        for (int i = from; i < to; i++) {
            cbor.writeInt(tokens[i]);
        }
        if (extraKeys == null) {
            cbor.writeNull();
        } else {
            cbor.writeValue(extraKeys);
        }
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
