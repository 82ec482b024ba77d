package dev.homing.bench.policy;

import dev.homing.bench.workload.Prompt;
import java.util.random.RandomGenerator;

/**
 * vLLM production-stack's {@code prefixaware} routing as shipped ({@code vllm-project/production-stack}
 * {@code src/vllm_router/routers/routing_logic.py} @ {@code 008a23bd48371ffc707875848b19784c348a3de0},
 * {@code PrefixAwareRouter.route_request}; trie {@code src/vllm_router/prefix/hashtrie.py} @
 * {@code 35e4ad377d6e8f2153af888a6968c5bdf3d00399}, {@link ChunkHashTrie}):
 * <ol>
 *   <li>the prompt: a completion's {@code prompt}, or the chat messages' contents joined by {@code "\n"} (a list of
 *       parts joins its text parts by a space; the lab's chats have string contents);</li>
 *   <li>{@code longest_prefix_match} over 128-character chunks, starting from all endpoints and intersecting with
 *       each matched node's endpoints;</li>
 *   <li>{@code random.choice} among the endpoints left: the deepest matched set, or every endpoint on a miss;</li>
 *   <li>the prompt is inserted for the chosen endpoint.</li>
 * </ol>
 * No load term at all. Upstream's trie has no eviction and no bound; the lab's copy is bounded
 * ({@link ChunkHashTrie}: {@value #MAX_NODES} nodes of 128 characters, least recently inserted leaves evicted), set high
 * enough that no scenario of the suite reaches it. Later versions added {@code prefix_min_match_length} (default 0,
 * below it the lowest-QPS endpoint), which at its default changes nothing.
 */
final class ProductionStackPrefixAware implements Policy {

    /**
     * 2^23 chunks of 128 characters: 1 G characters of distinct prefixes, about 1.5 GB of heap when full. The
     * longest scenario, suite-long-context, inserts about half of that (its 45 minutes hold ~150 M prompt tokens,
     * about half of them new); a run that reaches the bound says so on stderr.
     */
    static final long MAX_NODES = 1L << 23;

    private final int pods;
    private final RandomGenerator random;
    private final ChunkHashTrie trie;

    ProductionStackPrefixAware(int pods, RandomGenerator random) {
        this(pods, random, new ChunkHashTrie(ChunkHashTrie.CHUNK_SIZE, MAX_NODES));
    }

    ProductionStackPrefixAware(int pods, RandomGenerator random, ChunkHashTrie trie) {
        if (pods < 1 || pods > 64) {
            throw new IllegalArgumentException("1 to 64 pods, got " + pods);
        }
        this.pods = pods;
        this.random = random;
        this.trie = trie;
    }

    @Override
    public String name() {
        return Policies.PRODUCTION_STACK;
    }

    @Override
    public Placement place(PolicyRequest request) {
        long[] chunks = trie.chunkHashes(prompt(request.prompt()));
        int pod = choose(chunks);
        trie.insert(chunks, pod);
        return new Unheld(pod);
    }

    /** The endpoint for a request's chunks; records nothing. */
    int choose(long[] chunks) {
        long all = pods == 64 ? -1L : (1L << pods) - 1;
        long selected = trie.longestPrefixMatch(chunks, all).endpoints();
        int k = random.nextInt(Long.bitCount(selected));
        long m = selected;
        for (int i = 0; i < k; i++) {
            m &= m - 1;
        }
        return Long.numberOfTrailingZeros(m);
    }

    /**
     * What the router keys on: a completion's prompt, or a chat's message contents joined by newlines (an empty
     * content is a part, a missing one is not).
     */
    static String prompt(Prompt prompt) {
        if (!prompt.isChat()) {
            return prompt.text();
        }
        StringBuilder b = new StringBuilder();
        boolean first = true;
        for (Prompt.Message m : prompt.messages()) {
            if (m.content() == null) {
                continue; // "elif content is not None": a message without content adds no part
            }
            if (!first) {
                b.append('\n');
            }
            b.append(m.content());
            first = false;
        }
        return b.toString();
    }

    ChunkHashTrie trie() {
        return trie;
    }
}
