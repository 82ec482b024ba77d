package dev.homing.bench.policy;

import dev.homing.core.time.Ticker;

/**
 * SGLang's router policy {@code cache_aware} before June 2026, as {@code sgl-project/sglang} shipped it in
 * {@code sgl-router} ({@code sgl-router/src/policies/cache_aware.rs} @ {@code b6f20641ad6bafc1278db74d1e13b0e9da47bd64},
 * {@code select_worker}), with the command line's defaults: {@code cache_threshold} 0.3, {@code balance_abs_threshold}
 * 64, {@code balance_rel_threshold} 1.5, {@code eviction_interval_secs} 60, {@code max_tree_size} 2^26. Kept under its
 * own name ({@value Policies#SGLANG_2025}) beside today's SMG policy ({@link SglangCacheAware}).
 *
 * <p>A hard switch on the router's own in-flight request counts: when the pool is imbalanced ({@code max − min >
 * abs} and {@code max > rel · min}) the request goes to the least-loaded worker (the first one, as Rust's
 * {@code min_by_key}); otherwise its text is matched in the approximate radix tree ({@link CharRadixTree}) and, when
 * more than {@code cache_threshold} of its characters matched, it goes to the tenant the match names, else to the
 * tenant with the fewest characters in the tree ({@code get_smallest_tenant}; the first such in index order where
 * upstream takes its map's order). Either way the text is then recorded for the chosen worker. Eviction is per
 * tenant ({@link CharRadixTree#evictOverBudget}).
 */
final class Sglang2025CacheAware implements Policy {

    static final double CACHE_THRESHOLD = 0.3;
    static final int BALANCE_ABS_THRESHOLD = 64;
    static final double BALANCE_REL_THRESHOLD = 1.5;
    static final long EVICTION_INTERVAL_NANOS = 60_000_000_000L;
    static final long MAX_TREE_SIZE = 1L << 26;

    private final double cacheThreshold;
    private final int absThreshold;
    private final double relThreshold;
    private final long maxTreeSize;
    private final Ticker ticker;
    private final int[] load;
    private final CharRadixTree tree;
    private long nextEviction = EVICTION_INTERVAL_NANOS;

    Sglang2025CacheAware(int pods, Ticker ticker) {
        this(pods, ticker, CACHE_THRESHOLD, BALANCE_ABS_THRESHOLD, BALANCE_REL_THRESHOLD, MAX_TREE_SIZE);
    }

    Sglang2025CacheAware(int pods, Ticker ticker, double cacheThreshold, int absThreshold, double relThreshold,
                     long maxTreeSize) {
        this.cacheThreshold = cacheThreshold;
        this.absThreshold = absThreshold;
        this.relThreshold = relThreshold;
        this.maxTreeSize = maxTreeSize;
        this.ticker = ticker;
        this.load = new int[pods];
        this.tree = new CharRadixTree(pods);
    }

    @Override
    public String name() {
        return Policies.SGLANG_2025;
    }

    @Override
    public Placement place(PolicyRequest request) {
        long now = ticker.nanos();
        if (now >= nextEviction) {
            tree.evictOverBudget(maxTreeSize);
            nextEviction = now + EVICTION_INTERVAL_NANOS;
        }
        int pod = choose(PromptText.routingText(request.prompt()));
        return new CountedPlacement(load, pod);
    }

    /** The decision for one request's text, and its insertion into the tree; does not count the load. */
    int choose(String text) {
        int min = Integer.MAX_VALUE;
        int max = 0;
        int minIndex = 0;
        for (int i = 0; i < load.length; i++) {
            if (load[i] < min) {
                min = load[i];
                minIndex = i;
            }
            max = Math.max(max, load[i]);
        }
        boolean imbalanced = max - min > absThreshold && max > relThreshold * min;
        int pod = minIndex;
        if (!imbalanced) {
            CharRadixTree.Match m = tree.match(text);
            if (m.rate() > cacheThreshold && m.tenant() >= 0) {
                pod = m.tenant();
            } else {
                pod = smallestTenant();
            }
        }
        tree.insert(text, pod);
        return pod;
    }

    private int smallestTenant() {
        int best = 0;
        for (int t = 1; t < load.length; t++) {
            if (tree.chars(t) < tree.chars(best)) {
                best = t;
            }
        }
        return best;
    }

    /** This router's requests in flight to each worker (SMG's worker load). */
    int load(int pod) {
        return load[pod];
    }

    CharRadixTree tree() {
        return tree;
    }
}
