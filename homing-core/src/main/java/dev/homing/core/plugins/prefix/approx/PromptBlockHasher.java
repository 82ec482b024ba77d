package dev.homing.core.plugins.prefix.approx;

import dev.homing.protocol.openai.RoutingFields;
import java.nio.charset.StandardCharsets;
import net.openhft.hashing.LongHashFunction;

/**
 * Cuts a prompt into fixed-size blocks of its original body bytes and chains a 64-bit hash through them, so that a
 * block's hash stands for the whole prefix up to it (llm-d's approximate prefix hashing, over bytes: four bytes stand
 * for one token). The first link is the model and cache salt: the same prompt for another model or another salt is
 * another prefix. The bytes are read in place; nothing is copied.
 */
public final class PromptBlockHasher {

    private static final LongHashFunction XX = LongHashFunction.xx();

    private PromptBlockHasher() {
    }

    /**
     * @param blockBytes bytes per block
     * @param maxBlocks  at most this many blocks (the prompt's tail beyond is not matched)
     * @return one hash per block; empty when the prompt is shorter than one block. A trailing partial block is hashed
     *         too, as llm-d does.
     */
    public static long[] hash(RoutingFields fields, String model, int blockBytes, int maxBlocks) {
        int length = fields.promptLength();
        if (length < blockBytes || maxBlocks <= 0) {
            return new long[0];
        }
        int blocks = Math.min(maxBlocks, (length + blockBytes - 1) / blockBytes);
        long[] hashes = new long[blocks];
        long previous = root(model, fields.cacheSalt());
        byte[] body = fields.body();
        int offset = fields.promptOffset();
        for (int i = 0; i < blocks; i++) {
            int start = i * blockBytes;
            int len = Math.min(blockBytes, length - start);
            previous = XX.hashLong(previous ^ XX.hashBytes(body, offset + start, len));
            hashes[i] = previous;
        }
        return hashes;
    }

    static long root(String model, String cacheSalt) {
        String seed = cacheSalt == null ? model : model + '\u0000' + cacheSalt;
        return XX.hashBytes(seed.getBytes(StandardCharsets.UTF_8));
    }
}
