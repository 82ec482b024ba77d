package dev.homing.bench.policy;

import dev.homing.core.time.Ticker;
import java.util.random.RandomGenerator;

/**
 * SGLang's router policy {@code cache_aware} as SMG runs it today for HTTP workers ({@code smg-project/smg}
 * {@code model_gateway/src/policies/cache_aware.rs} and {@code mod.rs} @
 * {@code 56ad201813a222df0aca402ed6163ba737009d86}, the version the issue names f8daa88; tree
 * {@code crates/kv_index/src/string_tree.rs}), with the defaults of its command line
 * ({@code bindings/python/src/smg/router_args.py}): {@code cache_threshold} 0.3, {@code balance_abs_threshold} 64,
 * {@code balance_rel_threshold} 1.5, both KV-usage triggers off (1.0), {@code overlap_decay} 0,
 * {@code selection_temperature} 0, {@code eviction_interval_secs} 60, {@code max_tree_size} 2^26.
 *
 * <p>With load = the router's own in-flight requests per worker and processed = the requests it ever sent there:
 * <ol>
 *   <li>no fleet-wide count gate ("request-count dispersion is deliberately NOT a trigger");</li>
 *   <li>the text is matched in the approximate character tree ({@link CharRadixTree}); when more than
 *       {@code cache_threshold} of its characters matched (strictly), the candidates are the tenants holding the
 *       deepest matched node (at most 8); with decay and temperature 0 the least loaded of them wins, uniformly at
 *       random among equals ({@code argmax_with_random_ties});</li>
 *   <li>per-request spill ({@code gate_selected_candidate}): when that worker's load exceeds both
 *       {@code 1.5 × mean} and {@code mean + 64}, the mean taken over all workers before this request, the request
 *       goes to the least-loaded worker by (load, processed, index) instead;</li>
 *   <li>a miss goes to that same least-loaded worker;</li>
 *   <li>the text is inserted for the chosen worker (the spill target too, so a saturated prefix gains a tenant) and
 *       its processed count grows.</li>
 * </ol>
 * Eviction: every 60 s one budget of 2^26 characters for the whole tree, least recently used leaves across tenants
 * ({@link CharRadixTree#evictTreeWide}). Where SMG lists matched tenants in its map's order this takes the lowest
 * indices, which only matters beyond 8 pods.
 */
final class SglangCacheAware implements Policy {

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
    private final RandomGenerator random;
    private final int[] load;
    private final long[] processed;
    private final CharRadixTree tree;
    private long nextEviction = EVICTION_INTERVAL_NANOS;

    SglangCacheAware(int pods, Ticker ticker, RandomGenerator random) {
        this(pods, ticker, random, CACHE_THRESHOLD, BALANCE_ABS_THRESHOLD, BALANCE_REL_THRESHOLD, MAX_TREE_SIZE);
    }

    SglangCacheAware(int pods, Ticker ticker, RandomGenerator random, double cacheThreshold, int absThreshold,
                     double relThreshold, long maxTreeSize) {
        this.cacheThreshold = cacheThreshold;
        this.absThreshold = absThreshold;
        this.relThreshold = relThreshold;
        this.maxTreeSize = maxTreeSize;
        this.ticker = ticker;
        this.random = random;
        this.load = new int[pods];
        this.processed = new long[pods];
        this.tree = new CharRadixTree(pods);
    }

    @Override
    public String name() {
        return Policies.SGLANG;
    }

    @Override
    public Placement place(PolicyRequest request) {
        long now = ticker.nanos();
        if (now >= nextEviction) {
            tree.evictTreeWide(maxTreeSize);
            nextEviction = now + EVICTION_INTERVAL_NANOS;
        }
        int pod = choose(PromptText.routingText(request.prompt()));
        return new CountedPlacement(load, pod);
    }

    /** The decision for one request's text, its insertion into the tree and its processed count; not its load. */
    int choose(String text) {
        long sum = 0;
        int minLoad = 0;
        for (int i = 0; i < load.length; i++) {
            sum += load[i];
            if (load[i] < load[minLoad] || load[i] == load[minLoad] && processed[i] < processed[minLoad]) {
                minLoad = i; // key (load, processed, index): a later index wins only when strictly smaller
            }
        }
        double mean = (double) sum / load.length;
        CharRadixTree.Match m = tree.match(text);
        int pod = minLoad;
        if (m.rate() > cacheThreshold && m.tenants() != 0) {
            int selected = leastLoaded(m.tenants());
            boolean spill = load[selected] > mean * relThreshold && load[selected] > mean + absThreshold;
            pod = spill ? minLoad : selected;
        }
        tree.insert(text, pod);
        processed[pod]++;
        return pod;
    }

    private int leastLoaded(long tenants) {
        int best = Integer.MAX_VALUE;
        int[] tied = new int[Long.bitCount(tenants)];
        int ties = 0;
        for (long m = tenants; m != 0; m &= m - 1) {
            int t = Long.numberOfTrailingZeros(m);
            if (load[t] < best) {
                best = load[t];
                ties = 0;
            }
            if (load[t] == best) {
                tied[ties++] = t;
            }
        }
        return ties == 1 ? tied[0] : tied[random.nextInt(ties)];
    }

    /** This router's requests in flight to each worker (SMG's worker load). */
    int load(int pod) {
        return load[pod];
    }

    /** The live load counters, for tests that set a fleet's state by hand. */
    int[] loads() {
        return load;
    }

    long processed(int pod) {
        return processed[pod];
    }

    CharRadixTree tree() {
        return tree;
    }
}
