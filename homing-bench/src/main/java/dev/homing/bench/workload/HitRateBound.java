package dev.homing.bench.workload;

import dev.homing.core.collect.CompactLongLongMap;
import dev.homing.core.precise.BlockKeys;
import dev.homing.sim.tokenizer.ChatMessage;
import dev.homing.sim.tokenizer.SimTokenizer;

/**
 * The prefix-cache hit rate an infinite cache shared by the whole fleet would reach on a workload: the bound no
 * router can beat. Requests are taken in workload (arrival) order; each one's hit is the longest run of leading full
 * blocks it shares with any earlier request's prompt, by vLLM's rule: only full blocks count (an earlier prompt's
 * partial last block was never cached), and at most {@code tokens − 1} tokens (the last token is always computed).
 * The bound is Σ hit tokens / Σ prompt tokens. Different models never share a cache. Prefixes are compared by
 * their chained 64-bit block keys, as the precise index compares them.
 */
public final class HitRateBound {

    private HitRateBound() {
    }

    public static double of(Workload w, int blockSize) {
        if (blockSize < 1) {
            throw new IllegalArgumentException("blockSize must be at least 1, got " + blockSize);
        }
        // Every full block ever seen, by its chained key (the key of a block names the whole prefix up to it).
        CompactLongLongMap seen = new CompactLongLongMap();
        long hit = 0;
        long total = 0;
        for (WorkloadRequest r : w.requests()) {
            int[] tokens = tokens(r.prompt());
            long[] keys = BlockKeys.of(BlockKeys.root(0, String.valueOf(r.model()), null), tokens, blockSize,
                    Integer.MAX_VALUE);
            int matched = 0;
            while (matched < keys.length && seen.containsKey(keys[matched])) {
                matched++;
            }
            for (int k = matched; k < keys.length; k++) {
                seen.put(keys[k], 1);
            }
            int cap = tokens.length == 0 ? 0 : (tokens.length - 1) / blockSize;
            hit += (long) Math.min(matched, cap) * blockSize;
            total += tokens.length;
        }
        return total == 0 ? 0 : (double) hit / total;
    }

    /** The tokens the engine sees; workloads carry them, a prompt without them is tokenized here. */
    static int[] tokens(Prompt prompt) {
        if (prompt.tokens() != null) {
            return prompt.tokens();
        }
        SimTokenizer t = SimTokenizer.builtin();
        if (!prompt.isChat()) {
            return t.encode(prompt.text());
        }
        return t.encode(t.applyChatTemplate(prompt.messages().stream()
                .map(m -> new ChatMessage(m.role(), m.content())).toList(), true));
    }
}
