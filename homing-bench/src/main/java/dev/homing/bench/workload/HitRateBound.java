package dev.homing.bench.workload;

import dev.homing.sim.tokenizer.ChatMessage;
import dev.homing.sim.tokenizer.SimTokenizer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The prefix-cache hit rate an infinite cache shared by the whole fleet would reach on a workload: the bound no
 * router can beat. Requests are taken in workload (arrival) order; each one's hit is the longest run of leading full
 * blocks it shares with any earlier request's prompt, by vLLM's rule: only full blocks count (an earlier prompt's
 * partial last block was never cached), and at most {@code tokens − 1} tokens (the last token is always computed).
 * The bound is Σ hit tokens / Σ prompt tokens. Different models never share a cache.
 */
public final class HitRateBound {

    private HitRateBound() {
    }

    public static double of(Workload w, int blockSize) {
        if (blockSize < 1) {
            throw new IllegalArgumentException("blockSize must be at least 1, got " + blockSize);
        }
        Map<Block, Integer> children = new HashMap<>();
        Map<String, Integer> roots = new HashMap<>();
        long hit = 0;
        long total = 0;
        for (WorkloadRequest r : w.requests()) {
            int[] tokens = tokens(r.prompt());
            int node = roots.computeIfAbsent(String.valueOf(r.model()), m -> -1 - roots.size());
            int fullBlocks = tokens.length / blockSize;
            int matched = 0;
            boolean matching = true;
            Block probe = new Block();
            for (int k = 0; k < fullBlocks; k++) {
                probe.set(node, tokens, k * blockSize, blockSize);
                Integer child = matching ? children.get(probe) : null;
                if (child != null) {
                    matched++;
                    node = child;
                } else {
                    matching = false;
                    int id = children.size();
                    children.put(probe.copy(), id);
                    node = id;
                }
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

    /** A block of tokens under its parent block: equal keys mean equal prefixes up to and including this block. */
    private static final class Block {
        private int parent;
        private int[] tokens;
        private int from;
        private int length;
        private int hash;

        void set(int parent, int[] tokens, int from, int length) {
            this.parent = parent;
            this.tokens = tokens;
            this.from = from;
            this.length = length;
            int h = parent;
            for (int i = from; i < from + length; i++) {
                h = 31 * h + tokens[i];
            }
            this.hash = h;
        }

        Block copy() {
            Block b = new Block();
            b.parent = parent;
            b.tokens = Arrays.copyOfRange(tokens, from, from + length);
            b.from = 0;
            b.length = length;
            b.hash = hash;
            return b;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Block b && b.parent == parent && b.length == length
                    && Arrays.equals(tokens, from, from + length, b.tokens, b.from, b.from + b.length);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
