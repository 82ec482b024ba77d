package dev.homing.core.precise;

import dev.homing.core.collect.LongKeyMap;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.protocol.kvevents.AllBlocksCleared;
import dev.homing.protocol.kvevents.BlockRemoved;
import dev.homing.protocol.kvevents.BlockStored;
import dev.homing.protocol.kvevents.EventBlockHash;
import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The object-per-holding {@link InMemoryPreciseIndex} this project had before the columnar one, kept for
 * {@link InMemoryPreciseIndexModelTest} to compare against. Two changes in what it does: a speculative hold is expired
 * by the expiry it was queued with, the earliest first (the columnar index's rule), so that neither a refreshed hold
 * nor an older, longer one keeps expired ones (a hold cut short) in the index, and counted by {@code size()}, until it
 * expires too; and a
 * pod's engine-hash mappings are forgotten past {@code maxEntries} (the columnar index's bound on them). And one in
 * how: it counts its {@link IndexStats} through the production {@link IndexCounters} rather than four counters of its
 * own.
 *
 * <p>The original's doc:
 *
 * <p>Bounded: at most {@code maxEntries} (pod, block) holdings; beyond that the least recently stored goes. All
 * operations take one lock: event application and lookups each touch a few hundred entries.
 */
final class ReferencePreciseIndex implements PreciseIndex {

    private final long maxEntries;
    private final int blockSize;
    private final long seed;
    private final String[] tierNames;
    private final double[] tierWeights;
    private final ReentrantLock lock = new ReentrantLock();
    private final LongKeyMap<Holding> byKey = new LongKeyMap<>(1 << 12);
    private final Map<String, Pod> pods = new HashMap<>();
    private final Holding lru = Holding.sentinel();
    private final PriorityQueue<Queued> speculative = new PriorityQueue<>(Comparator.comparingLong(Queued::expiry));

    private record Queued(Holding holding, long expiry) {
    }
    private final Set<String> adapters = ConcurrentHashMap.newKeySet();
    private long size;
    private long epoch;

    private final IndexCounters counters = new IndexCounters();

    /**
     * @param blockSize   tokens per block; events of another block size are counted and skipped
     * @param seed        mixed into every key (llm-d's {@code hashSeed}); any value works, the engine's is not needed
     * @param tierWeights weight per tier name (lower-case medium: {@code gpu}, {@code cpu}); unknown tiers weigh 1.0
     */
    ReferencePreciseIndex(long maxEntries, int blockSize, long seed, Map<String, Double> tierWeights) {
        if (maxEntries <= 0 || blockSize <= 0) {
            throw new IllegalArgumentException("maxEntries and blockSize must be > 0");
        }
        this.maxEntries = maxEntries;
        this.blockSize = blockSize;
        this.seed = seed;
        this.tierNames = tierWeights.keySet().stream().sorted().toArray(String[]::new);
        this.tierWeights = new double[tierNames.length + 1];
        for (int i = 0; i < tierNames.length; i++) {
            this.tierWeights[i] = tierWeights.get(tierNames[i]);
        }
        this.tierWeights[tierNames.length] = 1.0; // any tier not configured
    }

    /** Records what a pod's engine hash stands for; past {@code maxEntries} mappings the pod's are forgotten. */
    private void map(Pod pod, long engine, long key) {
        if (pod.engineToKey.size() >= maxEntries && !pod.engineToKey.containsKey(engine)) {
            pod.engineToKey.clear();
        }
        pod.engineToKey.put(engine, key);
    }

    /** A pod that holds blocks. */
    private static final class Pod {
        final String name;
        final Map<Long, Long> engineToKey = new HashMap<>();
        long count;
        long matchEpoch = -1;
        int matched;
        int lastMatchedBlock = -1;
        double lastWeight;
        double score;

        Pod(String name) {
            this.name = name;
        }
    }

    /** One pod holding one block on one tier. */
    private static final class Holding {
        final long key;
        final Pod pod;
        final byte tier;
        long speculativeUntil; // 0: confirmed by an event
        Holding sameKeyNext;
        Holding prev = this;
        Holding next = this;

        Holding(long key, Pod pod, byte tier) {
            this.key = key;
            this.pod = pod;
            this.tier = tier;
        }

        static Holding sentinel() {
            return new Holding(0, null, (byte) 0);
        }
    }

    @Override
    public int blockSize() {
        return blockSize;
    }

    @Override
    public long root(String model, String cacheSalt) {
        return BlockKeys.root(seed, adapters.contains(model) ? model : null, cacheSalt);
    }

    @Override
    public int apply(String podName, List<KvCacheEvent> events) {
        int skipped = 0;
        lock.lock();
        try {
            Pod pod = pods.computeIfAbsent(podName, Pod::new);
            for (KvCacheEvent e : events) {
                switch (e) {
                    case BlockStored s -> skipped += stored(pod, s) ? 0 : 1;
                    case BlockRemoved r -> removed(pod, r);
                    case AllBlocksCleared c -> {
                        clearLocked(pod);
                        counters.cleared();
                    }
                }
            }
        } finally {
            lock.unlock();
        }
        return skipped;
    }

    private boolean stored(Pod pod, BlockStored s) {
        List<EventBlockHash> hashes = s.blockHashes();
        byte tier = tier(s.medium());
        if (s.tokenIds().length == 0) {
            // A copy of blocks the pod already holds, to another tier (CPU offload): same keys, new tier.
            for (EventBlockHash h : hashes) {
                Long key = pod.engineToKey.get(h.asUint64());
                if (key == null) {
                    counters.unresolved();
                    continue;
                }
                hold(pod, key, tier, 0);
            }
            return true;
        }
        if (!StoredBlocks.keyable(s, blockSize)) {
            counters.unresolved();
            return false;
        }
        long prev;
        if (s.parentBlockHash() != null) {
            long parent = s.parentBlockHash().asUint64();
            Long parentKey = pod.engineToKey.get(parent);
            if (parentKey == null) {
                counters.unresolved(); // we missed the parent's event: this chain cannot be keyed
                return false;
            }
            prev = parentKey;
        } else {
            if (s.loraName() != null) {
                adapters.add(s.loraName());
            }
            prev = StoredBlocks.chainStart(seed, s);
        }
        long[] keys = StoredBlocks.keys(prev, s, blockSize);
        for (int i = 0; i < keys.length; i++) {
            map(pod, hashes.get(i).asUint64(), keys[i]);
        }
        for (int i = keys.length - 1; i >= 0; i--) {
            hold(pod, keys[i], tier, 0); // tail first, so that the bound evicts prefixes from their tails
        }
        counters.stored(hashes.size());
        return true;
    }

    private void removed(Pod pod, BlockRemoved r) {
        byte tier = tier(r.medium());
        for (EventBlockHash h : r.blockHashes()) {
            long engine = h.asUint64();
            Long key = pod.engineToKey.get(engine);
            if (key == null) {
                continue;
            }
            Holding holding = find(pod, key, tier);
            if (holding != null) {
                unlink(holding);
                counters.removed();
            }
            if (find(pod, key, (byte) -1) == null) {
                pod.engineToKey.remove(engine); // no tier left: forget the mapping too
            }
        }
    }

    @Override
    public void holdSpeculatively(String podName, long[] keys, long untilNanos) {
        if (keys.length == 0) {
            return;
        }
        lock.lock();
        try {
            Pod pod = pods.computeIfAbsent(podName, Pod::new);
            for (int i = keys.length - 1; i >= 0; i--) {
                Holding h = hold(pod, keys[i], tier("GPU"), untilNanos); // a pick computes on the GPU
                if (h.speculativeUntil != 0) {
                    speculative.add(new Queued(h, h.speculativeUntil));
                }
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void settleSpeculatively(String podName, long[] keys, long untilNanos) {
        lock.lock();
        try {
            Pod pod = pods.get(podName);
            if (pod == null) {
                return;
            }
            for (long key : keys) {
                Holding h = find(pod, key, tier("GPU"));
                if (h != null && h.speculativeUntil != 0) {
                    // 0 means confirmed here: a hold cut short to time 0 is kept just before it
                    h.speculativeUntil = Math.min(h.speculativeUntil, untilNanos == 0 ? -1 : untilNanos);
                    speculative.add(new Queued(h, h.speculativeUntil));
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Adds or refreshes a holding; a confirmed one stays confirmed. */
    private Holding hold(Pod pod, long key, byte tier, long speculativeUntil) {
        Holding h = find(pod, key, tier);
        if (h != null) {
            if (speculativeUntil == 0) {
                h.speculativeUntil = 0;
            } else if (h.speculativeUntil != 0) {
                h.speculativeUntil = Math.max(h.speculativeUntil, speculativeUntil);
            }
            moveToNewest(h);
            return h;
        }
        h = new Holding(key, pod, tier);
        h.speculativeUntil = speculativeUntil;
        h.sameKeyNext = byKey.get(key);
        byKey.put(key, h);
        moveToNewest(h);
        pod.count++;
        size++;
        while (size > maxEntries) {
            unlink(lru.next);
        }
        return h;
    }

    /** The holding of this pod for this key on this tier (any tier when {@code tier} is -1), or null. */
    private Holding find(Pod pod, long key, byte tier) {
        for (Holding h = byKey.get(key); h != null; h = h.sameKeyNext) {
            if (h.pod == pod && (tier < 0 || h.tier == tier)) {
                return h;
            }
        }
        return null;
    }

    private void moveToNewest(Holding h) {
        h.prev.next = h.next;
        h.next.prev = h.prev;
        h.prev = lru.prev;
        h.next = lru;
        lru.prev.next = h;
        lru.prev = h;
    }

    private void unlink(Holding h) {
        if (h.pod == null || h.prev == null) {
            return; // the sentinel, or already gone
        }
        h.prev.next = h.next;
        h.next.prev = h.prev;
        h.prev = null;
        h.next = null;
        Holding head = byKey.get(h.key);
        if (head == h) {
            if (h.sameKeyNext == null) {
                byKey.remove(h.key);
            } else {
                byKey.put(h.key, h.sameKeyNext);
            }
        } else if (head != null) {
            Holding p = head;
            while (p.sameKeyNext != null && p.sameKeyNext != h) {
                p = p.sameKeyNext;
            }
            if (p.sameKeyNext == h) {
                p.sameKeyNext = h.sameKeyNext;
            }
        }
        h.pod.count--;
        size--;
    }

    private void expire(long nowNanos) {
        while (!speculative.isEmpty() && speculative.peek().expiry() <= nowNanos) {
            Holding h = speculative.poll().holding();
            if (h.speculativeUntil != 0 && h.speculativeUntil <= nowNanos && h.prev != null) {
                unlink(h);
            }
        }
    }

    @Override
    public void clear(String podName) {
        lock.lock();
        try {
            Pod pod = pods.get(podName);
            if (pod != null) {
                clearLocked(pod);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void removePod(String podName) {
        lock.lock();
        try {
            Pod pod = pods.remove(podName);
            if (pod != null) {
                clearLocked(pod);
            }
        } finally {
            lock.unlock();
        }
    }

    private void clearLocked(Pod pod) {
        if (pod.count > 0) {
            // Rare (a reset, a restart): walk every holding rather than pay for a per-pod list on each one.
            for (Holding h = lru.next; h != lru; ) {
                Holding next = h.next;
                if (h.pod == pod) {
                    unlink(h);
                }
                h = next;
            }
        }
        pod.engineToKey.clear();
    }

    @Override
    public Match match(long[] keys, List<EndpointState> candidates, int snapshotSize, long nowNanos) {
        int[] matched = new int[snapshotSize];
        double[] weighted = new double[snapshotSize];
        lock.lock();
        try {
            expire(nowNanos);
            long e = ++epoch;
            for (int i = 0; i < keys.length; i++) {
                boolean advanced = false;
                for (Holding h = byKey.get(keys[i]); h != null; h = h.sameKeyNext) {
                    if (h.speculativeUntil != 0 && h.speculativeUntil <= nowNanos) {
                        continue;
                    }
                    Pod p = h.pod;
                    double w = tierWeights[h.tier];
                    if (i == 0 && p.matchEpoch != e) {
                        p.matchEpoch = e;
                        p.matched = 1;
                        p.lastMatchedBlock = 0;
                        p.lastWeight = w;
                        p.score = w;
                        advanced = true;
                    } else if (p.matchEpoch == e && p.lastMatchedBlock == i - 1) {
                        p.matched = i + 1;
                        p.lastMatchedBlock = i;
                        p.lastWeight = w;
                        p.score += w;
                        advanced = true;
                    } else if (p.matchEpoch == e && p.lastMatchedBlock == i && w > p.lastWeight) {
                        p.score += w - p.lastWeight; // same block on a better tier
                        p.lastWeight = w;
                    }
                }
                if (!advanced) {
                    break;
                }
            }
            for (EndpointState c : candidates) {
                Pod p = pods.get(c.name());
                if (p != null && p.matchEpoch == e) {
                    matched[c.index()] = p.matched;
                    weighted[c.index()] = p.score;
                }
            }
        } finally {
            lock.unlock();
        }
        return new Match(matched, weighted, keys.length);
    }

    private byte tier(String medium) {
        return indexOf(StoredBlocks.tierName(medium));
    }

    private byte indexOf(String name) {
        for (int i = 0; i < tierNames.length; i++) {
            if (tierNames[i].equals(name)) {
                return (byte) i;
            }
        }
        return (byte) tierNames.length;
    }

    /**
     * The router key a pod's engine block hash stands for, as the events applied here say. Lets an index that keeps
     * its holdings elsewhere chain a pod's new blocks from parents this process has seen.
     */
    public OptionalLong keyOf(String podName, long engineHash) {
        lock.lock();
        try {
            Pod p = pods.get(podName);
            Long key = p == null ? null : p.engineToKey.get(engineHash);
            return key == null ? OptionalLong.empty() : OptionalLong.of(key);
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
            map(pods.computeIfAbsent(podName, Pod::new), engineHash, key);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long size() {
        lock.lock();
        try {
            return size;
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
