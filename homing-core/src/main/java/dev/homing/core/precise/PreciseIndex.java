package dev.homing.core.precise;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.List;
import java.util.Map;

/**
 * Which pods hold which KV blocks, as the pods themselves say in their KV-cache events (llm-d's kv-cache indexer):
 * router keys ({@link BlockKeys}) computed from each {@code BlockStored}'s tokens, and per pod a map from the engine's
 * block hashes to those keys, so {@code BlockRemoved} resolves. Holdings are tiered (GPU, CPU) and weighted when
 * scored. Speculative holdings mark a pick no event has confirmed yet; they expire after a TTL, or are cut short
 * when the pick's prefill is done.
 *
 * <p>{@link InMemoryPreciseIndex} keeps it in this process; a host may provide another (the router's, shared by its
 * replicas through Redis) with a {@link PreciseIndexFactory}. Every implementation is bounded and thread-safe.
 */
public interface PreciseIndex {

    /** Storage tiers a holding can be on, with the weights llm-d gives them by default. */
    Map<String, Double> DEFAULT_TIER_WEIGHTS = Map.of("gpu", 1.0, "cpu", 0.8);

    /** Tokens per block. */
    int blockSize();

    /**
     * The key chain's start for a request: its adapter (when the model named is one) and cache salt. A null
     * {@code model} (a conversation may name none) starts the base model's chain.
     */
    long root(String model, String cacheSalt);

    /**
     * Applies one pod's events in order.
     *
     * @return events that could not be applied (their parent block unknown, or another block size)
     */
    int apply(String podName, List<KvCacheEvent> events);

    /**
     * Marks a pick no event confirmed yet: the chosen pod will hold these blocks once it has run the prefill. Called
     * under the director's decision lock, so an implementation must not wait on I/O here.
     */
    void holdSpeculatively(String podName, long[] keys, long untilNanos);

    /**
     * The pick behind a speculative hold has prefilled its prompt (the pod's events will confirm the blocks) or will
     * not (it failed): the pod's speculative holdings of these keys last at most until {@code untilNanos}. Confirmed
     * holdings are not touched. Another pick's hold of the same keys is cut short too: the blocks are either there
     * now, or were never going to be.
     */
    void settleSpeculatively(String podName, long[] keys, long untilNanos);

    /** Everything a pod held is gone (it restarted, reset its cache, or left the pool). */
    void clear(String podName);

    /** Forgets a pod that left the pool. */
    void removePod(String podName);

    /**
     * How much of a prompt each candidate holds: the longest run of leading blocks held (confirmed, or speculative and
     * not expired), and that run weighted by tier (a block on several tiers counts its best).
     */
    Match match(long[] keys, List<EndpointState> candidates, int snapshotSize, long nowNanos);

    /**
     * Starts a lookup of a prompt's keys before the decision lock is taken; {@link Lookup#match} finishes it under
     * the lock. An index whose state is remote does its round trip here, so that decisions, which are serialised,
     * never wait on the network. The default does all the work in {@link Lookup#match}.
     */
    default Lookup lookup(long[] keys, long nowNanos) {
        return (candidates, snapshotSize, now) -> match(keys, candidates, snapshotSize, now);
    }

    /** (pod, block, tier) holdings. */
    long size();

    /** A pod's (block, tier) holdings. */
    long size(String podName);

    /** What the events this index applied amounted to; read without waiting on event application. */
    IndexStats stats();

    /** A lookup's result, by snapshot index. */
    record Match(int[] matchedBlocks, double[] weightedBlocks, int totalBlocks) {
    }

    /** A lookup begun outside the decision lock. */
    @FunctionalInterface
    interface Lookup {
        Match match(List<EndpointState> candidates, int snapshotSize, long nowNanos);
    }
}
