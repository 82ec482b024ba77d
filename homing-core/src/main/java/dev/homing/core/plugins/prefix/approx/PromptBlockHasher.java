package dev.homing.core.plugins.prefix.approx;

import dev.homing.protocol.openai.RoutingFields;
import java.nio.charset.StandardCharsets;
import net.openhft.hashing.LongHashFunction;

/**
 * Cuts a prompt into fixed-size blocks of its original body bytes and chains a 64-bit hash through them, so that a
 * block's hash stands for the whole prefix up to it (llm-d's approximate prefix hashing, over bytes: four bytes stand
 * for one token). The first link is the model and cache salt: the same prompt for another model or another salt is
 * another prefix. The bytes are read in place: a prompt in several pieces of the body (a Responses API request's
 * instructions, tools and input) is hashed as one run, and only a block straddling two pieces is put together, in a
 * scratch block of its own size.
 */
public final class PromptBlockHasher {

    private static final LongHashFunction XX = LongHashFunction.xx();

    private PromptBlockHasher() {
    }

    /**
     * @param blockBytes bytes per block
     * @param maxBlocks  at most this many blocks (the prompt's tail beyond is not matched)
     * @return one hash per block of {@link RoutingFields#prefixSpans()}; empty when they are shorter than one block
     *         (a request routed on load only has none). A trailing partial block is hashed too, as llm-d does.
     */
    public static long[] hash(RoutingFields fields, String model, int blockBytes, int maxBlocks) {
        int length = fields.prefixLength();
        if (length < blockBytes || maxBlocks <= 0) {
            return new long[0];
        }
        int blocks = Math.min(maxBlocks, (length + blockBytes - 1) / blockBytes);
        long[] hashes = new long[blocks];
        long previous = root(model, fields.cacheSalt());
        byte[] body = fields.body();
        int[] spans = fields.prefixSpans();
        byte[] scratch = null;
        int span = 0;
        int at = spans[0];
        for (int i = 0; i < blocks; i++) {
            int len = Math.min(blockBytes, length - i * blockBytes);
            long h;
            if (spans[span + 1] - at >= len) {
                h = XX.hashBytes(body, at, len); // the common case: the block lies in one piece
                at += len;
            } else {
                if (scratch == null) {
                    scratch = new byte[blockBytes];
                }
                int filled = 0;
                while (filled < len) {
                    if (at == spans[span + 1]) {
                        span += 2;
                        at = spans[span];
                    }
                    int n = Math.min(len - filled, spans[span + 1] - at);
                    System.arraycopy(body, at, scratch, filled, n);
                    filled += n;
                    at += n;
                }
                h = XX.hashBytes(scratch, 0, len);
            }
            if (at == spans[span + 1] && span + 2 < spans.length) {
                span += 2;
                at = spans[span];
            }
            previous = XX.hashLong(previous ^ h);
            hashes[i] = previous;
        }
        return hashes;
    }

    /** A request naming no model (a conversation may not) is hashed as model "": it may go to any pod. */
    static long root(String model, String cacheSalt) {
        String m = model == null ? "" : model;
        String seed = cacheSalt == null ? m : m + '\u0000' + cacheSalt;
        return XX.hashBytes(seed.getBytes(StandardCharsets.UTF_8));
    }
}
