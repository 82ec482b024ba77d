package dev.homing.router.record;

import dev.homing.core.plugins.prefix.approx.PromptBlockHasher;
import dev.homing.core.precise.BlockKeys;
import dev.homing.protocol.openai.RoutingFields;
import net.openhft.hashing.LongHashFunction;

/**
 * The chained keys of a prompt's 512-token blocks, as Mooncake's {@code hash_ids} mean them: key i stands for the
 * whole prefix up to block i, and there are {@code ceil(inputLength / 512)} of them, the last block partial.
 *
 * <p>When a token producer put the prompt's tokens in the cycle (the precise configs), the blocks are exactly 512 of
 * those tokens. Otherwise the router has only the body's bytes, as the approximate prefix producer has: the blocks
 * are runs of {@code round(512 × bytesPerToken)} bytes of what that producer hashes (the prompt, or a chat's
 * messages as sent), chained the same way, with {@code bytesPerToken} one value for a whole file (see
 * {@link TraceRecorder}) so that equal prefixes in one file give equal keys. Either way the keys come out one per
 * 512 tokens: a byte run that is shorter than the token count asks for gets keys chained on from its last one (a
 * function of the whole prompt, so equal prompts still agree), a longer one is cut.
 */
final class PromptBlocks {

    static final int BLOCK_TOKENS = 512;
    private static final LongHashFunction XX = LongHashFunction.xx();

    private PromptBlocks() {
    }

    /**
     * @param tokens the prompt's tokens, or null to use the body's bytes
     */
    static long[] keys(RoutingFields fields, String model, int[] tokens, long inputLength, double bytesPerToken) {
        int needed = (int) Math.min(Integer.MAX_VALUE / 2, (inputLength + BLOCK_TOKENS - 1) / BLOCK_TOKENS);
        long root = BlockKeys.root(0, model, fields.cacheSalt());
        long[] have;
        if (tokens != null) {
            int n = Math.min(needed, (tokens.length + BLOCK_TOKENS - 1) / BLOCK_TOKENS);
            have = new long[n];
            long prev = root;
            for (int i = 0; i < n; i++) {
                int from = i * BLOCK_TOKENS;
                prev = BlockKeys.next(prev, tokens, from, Math.min(BLOCK_TOKENS, tokens.length - from));
                have[i] = prev;
            }
        } else {
            int length = fields.prefixLength();
            int blockBytes = (int) Math.max(1, Math.min(1 << 24, Math.round(BLOCK_TOKENS * bytesPerToken)));
            // a prompt shorter than one block is one partial block, hashed as the longer blocks' last one would be
            have = length == 0 ? new long[0]
                    : PromptBlockHasher.hash(fields, model, Math.min(blockBytes, length), needed);
        }
        if (have.length == needed) {
            return have;
        }
        long[] keys = new long[needed];
        int copied = Math.min(needed, have.length);
        System.arraycopy(have, 0, keys, 0, copied);
        long prev = copied == 0 ? root : have[copied - 1];
        for (int i = copied; i < needed; i++) {
            prev = XX.hashLong(prev ^ 0x7EC0_12D5_0000_0000L ^ i);
            keys[i] = prev;
        }
        return keys;
    }
}
