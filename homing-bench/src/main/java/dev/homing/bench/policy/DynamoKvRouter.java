package dev.homing.bench.policy;

import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * NVIDIA Dynamo's KV router ({@code ai-dynamo/dynamo} {@code lib/kv-router/src/scheduling/selector.rs},
 * {@code DefaultWorkerSelector}; {@code sequence.rs}, {@code ActiveSequences}) with {@code KvRouterConfig::default}:
 * {@code overlap_score_weight} 1.0, {@code router_temperature} 0, KV events on, active blocks tracked and KV reuse
 * assumed, output blocks not tracked.
 *
 * <p>For each worker w, with the request's ISL tokens and its full blocks' keys:
 * <pre>
 *   prefill_blocks(w) = (isl − overlap(w)·block_size + active_prefill_tokens(w)) / block_size
 *   decode_blocks(w)  = new_blocks(w) + active_blocks(w)
 *   logit(w)          = overlap_score_weight · prefill_blocks(w) + decode_blocks(w)
 * </pre>
 * argmin; ties go to the smaller tree size (blocks the worker holds), then at random. overlap comes from the
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
        if (ties == 1) {
            return tied[0];
        }
        long smallest = Long.MAX_VALUE;
        int kept = 0;
        for (int i = 0; i < ties; i++) {
            long size = index.treeSize(tied[i]);
            if (size < smallest) {
                smallest = size;
                kept = 0;
            }
            if (size == smallest) {
                tied[kept++] = tied[i];
            }
        }
        return kept == 1 ? tied[0] : tied[random.nextInt(kept)];
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
