package dev.homing.core.precise;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link PreciseIndex} in this process's memory.
 *
 * <p>Bounded: at most {@code maxEntries} (pod, block) holdings, beyond that the least recently stored goes; at most
 * {@code maxEntries} engine-hash mappings per pod, beyond that the pod's are forgotten. All operations take one lock:
 * event application and lookups each touch a few hundred entries.
 *
 * <p>Laid out for memory (about 70 bytes a holding) and for lookups that do not chase a pointer per holding. Holdings
 * are rows of three longs addressed by int ids ({@link Holdings}: key; pod, tier and the next holding of the same key;
 * store order), with a key table to each key's chain; per pod, engine hash to key ({@link Pod}); the expiries of
 * speculative holdings beside ({@link SpeculativeHolds}). A key held many times also has a summary
 * ({@link KeySummaries}): per tier, the set of pods holding it confirmed there as a bitset over pod ids
 * ({@link PodIds}), and how many speculative holdings it has. A lookup ({@link LeadingRuns}) follows every pod's run at
 * once as a bitset, intersecting it with each block's summary, and walks a block's chain only when the block has no
 * summary (few holdings) or has speculative holdings, whose expiries must be read. Events ({@link EventApplication})
 * and speculative holds change holdings through {@link BoundedHoldings}, which keeps all of that in step.
 *
 * <p>This class owns the lock, under which it calls those parts; none of them locks.
 */
public final class InMemoryPreciseIndex implements PreciseIndex {

    private final int blockSize;
    private final long seed;
    private final Tiers tiers;
    private final ReentrantLock lock = new ReentrantLock();
    private final PodIds pods = new PodIds();
    private final Set<String> adapters = ConcurrentHashMap.newKeySet(); // read by root() without the lock
    private final IndexCounters counters = new IndexCounters();
    private final BoundedHoldings bounded;
    private final EventApplication eventApplication;
    private final LeadingRuns runs;

    /**
     * @param blockSize   tokens per block; events of another block size are counted and skipped
     * @param seed        mixed into every key (llm-d's {@code hashSeed}); any value works, the engine's is not needed
     * @param tierWeights weight per tier name (lower-case medium: {@code gpu}, {@code cpu}); unknown tiers weigh 1.0
     */
    public InMemoryPreciseIndex(long maxEntries, int blockSize, long seed, Map<String, Double> tierWeights) {
        if (maxEntries <= 0 || blockSize <= 0) {
            throw new IllegalArgumentException("maxEntries and blockSize must be > 0");
        }
        this.blockSize = blockSize;
        this.seed = seed;
        this.tiers = new Tiers(tierWeights);
        Holdings rows = new Holdings();
        KeySummaries summaries = new KeySummaries(tiers.count, rows, pods);
        SpeculativeHolds speculative = new SpeculativeHolds(rows);
        this.bounded = new BoundedHoldings(maxEntries, rows, summaries, speculative, pods);
        this.eventApplication = new EventApplication(maxEntries, blockSize, seed, tiers, bounded, adapters, counters);
        this.runs = new LeadingRuns(rows, summaries, speculative, pods, tiers);
    }

    @Override
    public int blockSize() {
        return blockSize;
    }

    @Override
    public long root(String model, String cacheSalt) {
        // no model (a conversation may name none) is the base model, "": the concurrent set refuses a null lookup
        String m = model == null ? "" : model;
        return BlockKeys.root(seed, adapters.contains(m) ? m : null, cacheSalt);
    }

    @Override
    public int apply(String podName, List<KvCacheEvent> events) {
        return apply(podName, events, null);
    }

    /**
     * Applies a pod's batch and tells {@code changes} (when not null) what it did, in order.
     *
     * @return events that could not be keyed (see {@link PreciseIndex#apply})
     */
    public int apply(String podName, List<KvCacheEvent> events, IndexChanges changes) {
        lock.lock();
        try {
            return eventApplication.apply(pods.getOrAdd(podName), events, changes);
        } finally {
            lock.unlock();
        }
    }

    /** Engine hashes mapped for a pod (bounded by {@code maxEntries}). */
    int mappedHashes(String podName) {
        lock.lock();
        try {
            Pod p = pods.get(podName);
            return p == null ? 0 : p.engineToKey.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void holdSpeculatively(String podName, long[] keys, long untilNanos) {
        if (keys.length == 0) {
            return;
        }
        lock.lock();
        try {
            // a pick computes on the GPU
            bounded.holdSpeculatively(pods.getOrAdd(podName), keys, tiers.gpu, untilNanos);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void settleSpeculatively(String podName, long[] keys, long untilNanos) {
        if (keys.length == 0) {
            return;
        }
        lock.lock();
        try {
            Pod pod = pods.get(podName);
            if (pod != null) {
                bounded.settleSpeculatively(pod, keys, tiers.gpu, untilNanos);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void clear(String podName) {
        lock.lock();
        try {
            Pod pod = pods.get(podName);
            if (pod != null) {
                eventApplication.clear(pod);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void removePod(String podName) {
        lock.lock();
        try {
            Pod pod = pods.get(podName);
            if (pod != null) {
                eventApplication.clear(pod);
                pods.remove(podName); // only now: removing its holdings found the pod by its id
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Match match(long[] keys, List<EndpointState> candidates, int snapshotSize, long nowNanos) {
        int[] matched = new int[snapshotSize];
        double[] weighted = new double[snapshotSize];
        lock.lock();
        try {
            bounded.expire(nowNanos);
            runs.match(keys, candidates, nowNanos, matched, weighted);
        } finally {
            lock.unlock();
        }
        return new Match(matched, weighted, keys.length);
    }

    /**
     * The router key a pod's engine block hash stands for, as the events applied here say. Lets an index that keeps
     * its holdings elsewhere chain a pod's new blocks from parents this process has seen.
     */
    public OptionalLong keyOf(String podName, long engineHash) {
        lock.lock();
        try {
            Pod p = pods.get(podName);
            return p == null || !p.engineToKey.containsKey(engineHash) ? OptionalLong.empty()
                    : OptionalLong.of(p.engineToKey.get(engineHash, 0));
        } finally {
            lock.unlock();
        }
    }

    /**
     * Maps a pod's engine block hash to a key learned elsewhere (a shared index that saw the parent's event), so that
     * the pod's next blocks chain from it here too. Holds nothing by itself.
     */
    public void learn(String podName, long engineHash, long key) {
        lock.lock();
        try {
            eventApplication.map(pods.getOrAdd(podName), engineHash, key);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long size() {
        lock.lock();
        try {
            return bounded.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long size(String podName) {
        lock.lock();
        try {
            Pod p = pods.get(podName);
            return p == null ? 0 : p.count;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public IndexStats stats() {
        return counters.stats();
    }
}
