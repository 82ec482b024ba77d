package dev.homing.core.plugins.precise;

import dev.homing.core.collect.LongKeyMap;
import dev.homing.core.collect.LongLongMap;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.protocol.kvevents.AllBlocksCleared;
import dev.homing.protocol.kvevents.BlockRemoved;
import dev.homing.protocol.kvevents.BlockStored;
import dev.homing.protocol.kvevents.EventBlockHash;
import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Which pods hold which KV blocks, as the pods themselves say in their KV-cache events (llm-d's kv-cache indexer):
 * router keys ({@link BlockKeys}) computed from each {@code BlockStored}'s tokens, and per pod a map from the engine's
 * block hashes to those keys, so {@code BlockRemoved} resolves. Holdings are tiered (GPU, CPU) and weighted when
 * scored. Speculative holdings mark a pick no event has confirmed yet; they expire after a TTL.
 *
 * <p>Bounded: at most {@code maxEntries} (pod, block) holdings; beyond that the least recently stored goes. All
 * operations take one lock: event application and lookups each touch a few hundred entries.
 */
public final class PreciseIndex {

    /** Storage tiers a holding can be on, with the weights llm-d gives them by default. */
    public static final Map<String, Double> DEFAULT_TIER_WEIGHTS = Map.of("gpu", 1.0, "cpu", 0.8);

    private final long maxEntries;
    private final int blockSize;
    private final long seed;
    private final String[] tierNames;
    private final double[] tierWeights;
    private final ReentrantLock lock = new ReentrantLock();
    private final LongKeyMap<Holding> byKey = new LongKeyMap<>(1 << 12);
    private final Map<String, Pod> pods = new HashMap<>();
    private final Holding lru = Holding.sentinel();
    private final ArrayDeque<Holding> speculative = new ArrayDeque<>();
    private final Set<String> adapters = ConcurrentHashMap.newKeySet();
    private long size;
    private long epoch;

    private final AtomicLong storedBlocks = new AtomicLong();
    private final AtomicLong removedBlocks = new AtomicLong();
    private final AtomicLong unresolved = new AtomicLong();
    private final AtomicLong clears = new AtomicLong();

    /**
     * @param blockSize   tokens per block; events of another block size are counted and skipped
     * @param seed        mixed into every key (llm-d's {@code hashSeed}); any value works, the engine's is not needed
     * @param tierWeights weight per tier name (lower-case medium: {@code gpu}, {@code cpu}); unknown tiers weigh 1.0
     */
    public PreciseIndex(long maxEntries, int blockSize, long seed, Map<String, Double> tierWeights) {
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

    /** A pod that holds blocks. */
    private static final class Pod {
        final String name;
        final LongLongMap engineToKey = new LongLongMap(256);
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

    public int blockSize() {
        return blockSize;
    }

    /** The key chain's start for a request: its adapter (when the model named is one) and cache salt. */
    public long root(String model, String cacheSalt) {
        return BlockKeys.root(seed, adapters.contains(model) ? model : null, cacheSalt);
    }

    /**
     * Applies one pod's events in order.
     *
     * @return events that could not be applied (their parent block unknown, or another block size)
     */
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
                        clears.incrementAndGet();
                    }
                }
            }
        } finally {
            lock.unlock();
        }
        return skipped;
    }

    private boolean stored(Pod pod, BlockStored s) {
        int bs = s.blockSize() > 0 ? s.blockSize() : blockSize;
        List<EventBlockHash> hashes = s.blockHashes();
        byte tier = tier(s.medium());
        int[] tokens = s.tokenIds();
        if (tokens.length == 0) {
            // A copy of blocks the pod already holds, to another tier (CPU offload): same keys, new tier.
            for (EventBlockHash h : hashes) {
                long key = pod.engineToKey.get(h.asUint64(), Long.MIN_VALUE);
                if (key == Long.MIN_VALUE && !pod.engineToKey.containsKey(h.asUint64())) {
                    unresolved.incrementAndGet();
                    continue;
                }
                hold(pod, key, tier, 0);
            }
            return true;
        }
        if (bs != blockSize || tokens.length < hashes.size() * bs) {
            unresolved.incrementAndGet();
            return false;
        }
        long prev;
        if (s.parentBlockHash() != null) {
            long parent = s.parentBlockHash().asUint64();
            if (!pod.engineToKey.containsKey(parent)) {
                unresolved.incrementAndGet(); // we missed the parent's event: this chain cannot be keyed
                return false;
            }
            prev = pod.engineToKey.get(parent, 0);
        } else {
            if (s.loraName() != null) {
                adapters.add(s.loraName());
            }
            prev = BlockKeys.root(seed, s.loraName(), salt(s));
        }
        long[] keys = new long[hashes.size()];
        for (int i = 0; i < keys.length; i++) {
            prev = BlockKeys.next(prev, tokens, i * bs, bs);
            keys[i] = prev;
            pod.engineToKey.put(hashes.get(i).asUint64(), prev);
        }
        for (int i = keys.length - 1; i >= 0; i--) {
            hold(pod, keys[i], tier, 0); // tail first, so that the bound evicts prefixes from their tails
        }
        storedBlocks.addAndGet(hashes.size());
        return true;
    }

    /** The cache salt among the first block's extra keys: a string that is not the adapter's name. */
    private static String salt(BlockStored s) {
        if (s.extraKeys() == null || s.extraKeys().isEmpty() || s.extraKeys().get(0) == null) {
            return null;
        }
        String salt = null;
        for (Object k : s.extraKeys().get(0)) {
            if (k instanceof String str && !str.equals(s.loraName())) {
                salt = str;
            }
        }
        return salt;
    }

    private void removed(Pod pod, BlockRemoved r) {
        byte tier = tier(r.medium());
        for (EventBlockHash h : r.blockHashes()) {
            long engine = h.asUint64();
            if (!pod.engineToKey.containsKey(engine)) {
                continue;
            }
            long key = pod.engineToKey.get(engine, 0);
            Holding holding = find(pod, key, tier);
            if (holding != null) {
                unlink(holding);
                removedBlocks.incrementAndGet();
            }
            if (find(pod, key, (byte) -1) == null) {
                pod.engineToKey.remove(engine, 0); // no tier left: forget the mapping too
            }
        }
    }

    /** Marks a pick no event confirmed yet: the chosen pod will hold these blocks once it has run the prefill. */
    public void holdSpeculatively(String podName, long[] keys, long untilNanos) {
        if (keys.length == 0) {
            return;
        }
        lock.lock();
        try {
            Pod pod = pods.computeIfAbsent(podName, Pod::new);
            for (int i = keys.length - 1; i >= 0; i--) {
                Holding h = hold(pod, keys[i], (byte) 0, untilNanos);
                if (h.speculativeUntil != 0) {
                    speculative.addLast(h);
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
        while (!speculative.isEmpty() && speculative.peekFirst().speculativeUntil <= nowNanos) {
            Holding h = speculative.pollFirst();
            if (h.speculativeUntil != 0 && h.prev != null) {
                unlink(h);
            }
        }
    }

    /** Everything a pod held is gone (it restarted, reset its cache, or left the pool). */
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

    /** Forgets a pod that left the pool. */
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

    /**
     * How much of a prompt each candidate holds: the longest run of leading blocks held (confirmed, or speculative and
     * not expired), and that run weighted by tier (a block on several tiers counts its best).
     */
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

    /** A lookup's result, by snapshot index. */
    public record Match(int[] matchedBlocks, double[] weightedBlocks, int totalBlocks) {
    }

    private byte tier(String medium) {
        if (medium == null) {
            return indexOf("gpu");
        }
        return indexOf(medium.toLowerCase(Locale.ROOT));
    }

    private byte indexOf(String name) {
        for (int i = 0; i < tierNames.length; i++) {
            if (tierNames[i].equals(name)) {
                return (byte) i;
            }
        }
        return (byte) tierNames.length;
    }

    /** (pod, block, tier) holdings. */
    public long size() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }

    public long size(String podName) {
        lock.lock();
        try {
            Pod p = pods.get(podName);
            return p == null ? 0 : p.count;
        } finally {
            lock.unlock();
        }
    }

    public long storedBlocks() {
        return storedBlocks.get();
    }

    public long removedBlocks() {
        return removedBlocks.get();
    }

    /** Events that could not be applied: a parent never seen, a block size not ours. */
    public long unresolvedEvents() {
        return unresolved.get();
    }

    public long clears() {
        return clears.get();
    }
}
