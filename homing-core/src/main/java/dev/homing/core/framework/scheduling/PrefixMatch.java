package dev.homing.core.framework.scheduling;

import dev.homing.core.endpoint.EndpointState;

/**
 * How much of the request's prompt each endpoint is believed to hold in its KV cache, in blocks: what llm-d calls
 * {@code PrefixCacheMatchInfo}. Written by a prefix producer, read by prefix scorers, the newcomer spreader and the
 * load accounting (only uncached tokens fill new blocks).
 *
 * @param matchedBlocks leading blocks held, by snapshot index
 * @param totalBlocks   blocks the prompt was cut into (0 when it is shorter than one block)
 * @param tokensPerBlock tokens per block, for turning blocks into tokens: fractional where a block is cut from text
 *                       and the text's bytes per token were learnt
 */
public record PrefixMatch(int[] matchedBlocks, int totalBlocks, double tokensPerBlock) {

    public static final CycleKey<PrefixMatch> KEY = CycleKey.of("prefix-match", PrefixMatch.class);

    public int matched(EndpointState endpoint) {
        int i = endpoint.index();
        return i < matchedBlocks.length ? matchedBlocks[i] : 0;
    }

    /** Tokens of a prompt of {@code promptTokens} that the endpoint holds; 0 without a match in the cycle. */
    public static long cachedTokens(Cycle cycle, EndpointState endpoint, long promptTokens) {
        PrefixMatch match = cycle.get(KEY);
        return match == null ? 0 : Math.min(promptTokens, Math.round(match.matched(endpoint) * match.tokensPerBlock));
    }

    /** Share of the prompt held, 0..1; 0 when the prompt has no blocks. */
    public double ratio(EndpointState endpoint) {
        return totalBlocks == 0 ? 0 : Math.min(1.0, (double) matched(endpoint) / totalBlocks);
    }

    /** True when some endpoint holds at least one block: the request is not a newcomer. */
    public boolean anyHit() {
        for (int m : matchedBlocks) {
            if (m > 0) {
                return true;
            }
        }
        return false;
    }
}
