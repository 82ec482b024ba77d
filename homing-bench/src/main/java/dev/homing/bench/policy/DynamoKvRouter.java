package dev.homing.bench.policy;

import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * NVIDIA Dynamo's KV router ({@code ai-dynamo/dynamo} @ {@code 01690d42e3b9436ab3a6a365fc9beabf58c105c6},
 * {@code lib/kv-router/src/scheduling/selector.rs}, {@code DefaultWorkerSelector::select_worker}; {@code sequence.rs},
 * {@code ActiveSequences}) with {@code KvRouterConfig::default}:
 * {@code overlap_score_weight} 1.0, {@code router_temperature} 0, KV events on, active blocks tracked and KV reuse
 * assumed, output blocks not tracked.
 *
 * <p>For each worker w, with the request's ISL tokens and its full blocks' keys:
 * <pre>
 *   prefill_blocks(w) = (isl − overlap(w)·block_size + active_prefill_tokens(w)) / block_size
 *   decode_blocks(w)  = new_blocks(w) + active_blocks(w)
 *   logit(w)          = overlap_score_weight · prefill_blocks(w) + decode_blocks(w)
 * </pre>
 * argmin; ties uniformly at random among every worker of the least logit (upstream keeps one by reservoir sampling,
 * {@code fastrand::usize(0..tie_count) == 0}; no tree-size key, which this lab's copy used to apply). Upstream
 * clamps the whole prefill term at 0 where this clamps the new tokens; the two agree whenever the overlap is within
 * the prompt, which it is (overlap counts the prompt's own full blocks). overlap comes from the
 * {@link KvBlockIndex} fed by KV events; the active terms from {@link ActiveSequences}, which count the request at
 * the pick, stop counting its prefill at its first token and free it at its end.
 */
final class DynamoKvRouter implements Policy {

    static final double OVERLAP_SCORE_WEIGHT = 1.0;

    private final double overlapWeight;
    private final int blockSize;
    private final KvBlockIndex index;
    private final ActiveSequences[] active;
    private final RandomGenerator random;

    DynamoKvRouter(int workers, int blockSize, RandomGenerator random) {
        this(workers, blockSize, OVERLAP_SCORE_WEIGHT, random);
    }

    DynamoKvRouter(int workers, int blockSize, double overlapWeight, RandomGenerator random) {
        this.overlapWeight = overlapWeight;
        this.blockSize = blockSize;
        this.index = new KvBlockIndex(workers, blockSize);
        this.active = new ActiveSequences[workers];
        for (int w = 0; w < workers; w++) {
            active[w] = new ActiveSequences();
        }
        this.random = random;
    }

    @Override
    public String name() {
        return Policies.DYNAMO;
    }

    @Override
    public boolean consumesKvEvents() {
        return true;
    }

    @Override
    public void kvEvents(int pod, List<KvCacheEvent> events) {
        index.apply(pod, events);
    }

    @Override
    public Placement place(PolicyRequest request) {
        int isl = request.tokens().length;
        long[] keys = index.keys(request.tokens());
        int[] overlap = index.findMatches(keys);
        int pod = choose(isl, keys, overlap);
        int prefillTokens = Math.max(0, isl - overlap[pod] * blockSize);
        active[pod].add(request.id(), keys, prefillTokens);
        return new Tracked(pod, request.id());
    }

    /** The worker of least logit for a request; does not record it. */
    int choose(int isl, long[] keys, int[] overlap) {
        int n = active.length;
        double best = Double.POSITIVE_INFINITY;
        int[] tied = new int[n];
        int ties = 0;
        for (int w = 0; w < n; w++) {
            double l = logit(w, isl, keys, overlap[w]);
            if (l < best) {
                best = l;
                ties = 0;
            }
            if (l == best) {
                tied[ties++] = w;
            }
        }
        // Uniform among the exact minima, as upstream's reservoir sampling (one draw per tie, so the same law).
        return ties == 1 ? tied[0] : tied[random.nextInt(ties)];
    }

    double logit(int worker, int isl, long[] keys, int overlap) {
        ActiveSequences a = active[worker];
        long newTokens = Math.max(0, isl - (long) overlap * blockSize);
        double prefillBlocks = (double) (newTokens + a.activeTokens()) / blockSize;
        double decodeBlocks = a.newBlocks(keys) + a.activeBlocks();
        return overlapWeight * prefillBlocks + decodeBlocks;
    }

    KvBlockIndex index() {
        return index;
    }

    ActiveSequences active(int worker) {
        return active[worker];
    }

    private final class Tracked implements Placement {
        private final int pod;
        private final String requestId;

        Tracked(int pod, String requestId) {
            this.pod = pod;
            this.requestId = requestId;
        }

        @Override
        public int pod() {
            return pod;
        }

        @Override
        public void firstToken(long nanos) {
            active[pod].markPrefillCompleted(requestId);
        }

        @Override
        public void finished(long nanos) {
            active[pod].free(requestId);
        }
    }
}
