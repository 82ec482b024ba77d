package dev.homing.core.precise;

import static dev.homing.core.precise.Holdings.ID_MASK;
import static dev.homing.core.precise.Holdings.NONE;
import static dev.homing.core.precise.Holdings.POD_SHIFT;
import static dev.homing.core.precise.Holdings.SPECULATIVE;
import static dev.homing.core.precise.Holdings.SUMMARY;
import static dev.homing.core.precise.Holdings.TIER_MASK;

import dev.homing.core.collect.CompactLongLongMap;
import dev.homing.core.collect.LongKeyMap;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.protocol.kvevents.AllBlocksCleared;
import dev.homing.protocol.kvevents.BlockRemoved;
import dev.homing.protocol.kvevents.BlockStored;
import dev.homing.protocol.kvevents.EventBlockHash;
import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.Arrays;
import java.util.HashMap;
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
 * store order), with a key table to each key's chain; per pod, engine hash to key ({@link CompactLongLongMap}); the
 * expiries of speculative holdings beside. A key held {@value #SUMMARY_AT} times or more (more with over 64 pods: see
 * {@link #summaryAt}) also has a summary: per tier, the set of pods holding it confirmed there as a bitset over pod
 * ids, and how many speculative holdings it has. A lookup follows every pod's run at once as a bitset, intersecting it
 * with each block's summary, and walks a block's chain only when the block has no summary (few holdings) or has
 * speculative holdings, whose expiries must be read.
 */
public final class InMemoryPreciseIndex implements PreciseIndex {

    /** Holdings of one key from which it gets a summary, at least; more when the pods need more than a word. */
    private static final int SUMMARY_AT = 4;
    private static final long UNMAPPED = Long.MIN_VALUE; // asked of engine maps; a key may be this too, so re-checked

    private final long maxEntries;
    private final int blockSize;
    private final long seed;
    private final String[] tierNames;
    private final double[] tierWeights;
    private final int tiers; // the configured ones and one for any other
    private final int[] tiersByWeight; // heaviest first
    private final int topTier;
    private final double topWeight;
    private final int gpuTier;
    private final ReentrantLock lock = new ReentrantLock();
    private final Holdings holdings = new Holdings();
    private final LongKeyMap<long[]> summaries = new LongKeyMap<>();
    private final CompactLongLongMap expiries = new CompactLongLongMap(); // speculative holding id -> until
    private final ExpiryQueue speculative = new ExpiryQueue();
    private final CompactLongLongMap queued = new CompactLongLongMap(); // holding id -> its entries in speculative
    private final Map<String, Pod> pods = new HashMap<>();
    private final Set<String> adapters = ConcurrentHashMap.newKeySet();
    private Pod[] podsById = new Pod[16];
    private int podIds; // pod ids handed out at least once
    private int[] freePodIds = new int[16];
    private int freePodCount;
    private long size;
    private String lastMedium; // and its tier
    private int lastMediumTier;

    // A lookup's scratch, by pod id (bitsets by word of 64 pod ids); used under the lock only.
    private long epoch;
    private long walks;
    private long[] running = new long[1]; // pods whose run reaches the current block
    private long[] individual = new long[1]; // running pods whose score is their own (a block below the top tier)
    private long[] seen = new long[1];
    private long[] seenAt = new long[64];
    private double[] best = new double[64];
    private double[] score = new double[64];
    private long[] resultEpoch = new long[64];
    private int[] resultMatched = new int[64];
    private double[] resultScore = new double[64];

    private final IndexCounters counters = new IndexCounters();

    /**
     * @param blockSize   tokens per block; events of another block size are counted and skipped
     * @param seed        mixed into every key (llm-d's {@code hashSeed}); any value works, the engine's is not needed
     * @param tierWeights weight per tier name (lower-case medium: {@code gpu}, {@code cpu}); unknown tiers weigh 1.0
     */
    public InMemoryPreciseIndex(long maxEntries, int blockSize, long seed, Map<String, Double> tierWeights) {
        if (maxEntries <= 0 || blockSize <= 0) {
            throw new IllegalArgumentException("maxEntries and blockSize must be > 0");
        }
        if (tierWeights.size() >= TIER_MASK) {
            throw new IllegalArgumentException("at most " + (TIER_MASK - 1) + " tiers");
        }
        this.maxEntries = maxEntries;
        this.blockSize = blockSize;
        this.seed = seed;
        this.tierNames = tierWeights.keySet().stream().sorted().toArray(String[]::new);
        this.tiers = tierNames.length + 1;
        this.tierWeights = new double[tiers];
        for (int i = 0; i < tierNames.length; i++) {
            this.tierWeights[i] = tierWeights.get(tierNames[i]);
        }
        this.tierWeights[tierNames.length] = 1.0; // any tier not configured
        this.tiersByWeight = new int[tiers];
        Integer[] order = new Integer[tiers];
        for (int i = 0; i < tiers; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(this.tierWeights[b], this.tierWeights[a]));
        for (int i = 0; i < tiers; i++) {
            tiersByWeight[i] = order[i];
        }
        this.topTier = tiersByWeight[0];
        this.topWeight = this.tierWeights[topTier];
        this.gpuTier = indexOf(StoredBlocks.tierName(null));
    }

    /** A pod that holds blocks. */
    private static final class Pod {
        final String name;
        final int id;
        final CompactLongLongMap engineToKey = new CompactLongLongMap();
        long count;

        Pod(String name, int id) {
            this.name = name;
            this.id = id;
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
        return apply(podName, events, null);
    }

    /**
     * Applies a pod's batch and tells {@code changes} (when not null) what it did, in order.
     *
     * @return events that could not be keyed (see {@link PreciseIndex#apply})
     */
    public int apply(String podName, List<KvCacheEvent> events, IndexChanges changes) {
        int skipped = 0;
        lock.lock();
        try {
            Pod pod = pod(podName);
            for (KvCacheEvent e : events) {
                switch (e) {
                    case BlockStored s -> skipped += stored(pod, s, changes) ? 0 : 1;
                    case BlockRemoved r -> removed(pod, r, changes);
                    case AllBlocksCleared c -> {
                        clearLocked(pod);
                        counters.cleared();
                        if (changes != null) {
                            changes.cleared();
                        }
                    }
                }
            }
        } finally {
            lock.unlock();
        }
        return skipped;
    }

    private boolean stored(Pod pod, BlockStored s, IndexChanges changes) {
        List<EventBlockHash> hashes = s.blockHashes();
        int tier = tier(s.medium());
        if (s.tokenCount() == 0) {
            // A copy of blocks the pod already holds, to another tier (CPU offload): same keys, new tier.
            for (EventBlockHash h : hashes) {
                long engine = h.asUint64();
                long key = pod.engineToKey.get(engine, UNMAPPED);
                if (key == UNMAPPED && !pod.engineToKey.containsKey(engine)) {
                    counters.unresolved();
                    continue;
                }
                hold(pod, key, tier, 0);
                if (changes != null) {
                    changes.held(s.medium(), key);
                }
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
            prev = pod.engineToKey.get(parent, UNMAPPED);
            if (prev == UNMAPPED && !pod.engineToKey.containsKey(parent)) {
                counters.unresolved(); // we missed the parent's event: this chain cannot be keyed
                return false;
            }
        } else {
            if (s.loraName() != null) {
                adapters.add(s.loraName());
                if (changes != null) {
                    changes.adapter(s.loraName());
                }
            }
            prev = StoredBlocks.chainStart(seed, s);
        }
        long[] keys = StoredBlocks.keys(prev, s, blockSize);
        for (int i = 0; i < keys.length; i++) {
            map(pod, hashes.get(i).asUint64(), keys[i]);
            if (changes != null) {
                changes.mapped(hashes.get(i).asUint64(), keys[i]);
            }
        }
        for (int i = keys.length - 1; i >= 0; i--) {
            hold(pod, keys[i], tier, 0); // tail first, so that the bound evicts prefixes from their tails
            if (changes != null) {
                changes.held(s.medium(), keys[i]);
            }
        }
        counters.stored(hashes.size());
        return true;
    }

    /**
     * Records what a pod's engine hash stands for. The map shrinks with the pod's {@code BlockRemoved} events; should
     * they not come (mappings learned from other replicas, a publisher that never removes), it is bounded like the
     * holdings: past {@code maxEntries} mappings the pod's are forgotten, and its chains start again from their roots.
     */
    private void map(Pod pod, long engine, long key) {
        if (pod.engineToKey.size() >= maxEntries && !pod.engineToKey.containsKey(engine)) {
            pod.engineToKey.clear();
        }
        pod.engineToKey.put(engine, key);
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

    private void removed(Pod pod, BlockRemoved r, IndexChanges changes) {
        int tier = tier(r.medium());
        for (EventBlockHash hash : r.blockHashes()) {
            long engine = hash.asUint64();
            if (changes != null) {
                changes.removed(r.medium(), engine);
            }
            long key = pod.engineToKey.get(engine, UNMAPPED);
            if (key == UNMAPPED && !pod.engineToKey.containsKey(engine)) {
                continue;
            }
            int slot = holdings.slotOf(key);
            int holding = NONE;
            boolean otherTier = false;
            for (int h = slot < 0 ? NONE : holdings.slotValue(slot) & ID_MASK; h != NONE; h = holdings.nextOfKey(h)) {
                int pt = holdings.podTier(h);
                if (pt >>> POD_SHIFT == pod.id) {
                    if ((pt & TIER_MASK) == tier) {
                        holding = h;
                    } else {
                        otherTier = true;
                    }
                }
            }
            if (holding != NONE) {
                unlink(holding, slot);
                counters.removed();
            }
            if (!otherTier) {
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
            Pod pod = pod(podName);
            for (int i = keys.length - 1; i >= 0; i--) {
                int h = hold(pod, keys[i], gpuTier, untilNanos); // a pick computes on the GPU
                if ((holdings.podTier(h) & SPECULATIVE) != 0) {
                    speculative.add(h, expiries.get(h, untilNanos));
                    queued.put(h, queued.get(h, 0) + 1);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Adds or refreshes a holding; a confirmed one stays confirmed. Returns its id. */
    private int hold(Pod pod, long key, int tier, long speculativeUntil) {
        int slot = holdings.slotOf(key);
        int first = slot < 0 ? 0 : holdings.slotValue(slot);
        int podTier = pod.id << POD_SHIFT | tier;
        int length = 0;
        for (int h = first & ID_MASK; h != NONE; h = holdings.nextOfKey(h)) {
            int pt = holdings.podTier(h);
            if ((pt & ~SPECULATIVE) == podTier) {
                if ((pt & SPECULATIVE) != 0) {
                    if (speculativeUntil == 0) {
                        holdings.setPodTier(h, podTier);
                        expiries.remove(h);
                        if ((first & SUMMARY) != 0) {
                            long[] s = summaryWithRoom(key, pod.id);
                            exclude(s, pt);
                            include(s, podTier);
                        }
                    } else {
                        expiries.put(h, Math.max(expiries.get(h, speculativeUntil), speculativeUntil));
                    }
                }
                holdings.moveToNewest(h);
                return h;
            }
            length++;
        }
        if (speculativeUntil != 0) {
            podTier |= SPECULATIVE;
        }
        int h = holdings.add(key, podTier);
        if (speculativeUntil != 0) {
            expiries.put(h, speculativeUntil);
        }
        if (slot < 0) {
            holdings.insert(slot, h);
        } else {
            holdings.setNextOfKey(h, first & ID_MASK);
            int flag = first & SUMMARY;
            if (flag != 0) {
                include(summaryWithRoom(key, pod.id), podTier);
            } else if (length + 1 >= summaryAt()) {
                summaries.put(key, summarize(h));
                flag = SUMMARY;
            }
            holdings.setSlotValue(slot, h | flag);
        }
        holdings.moveToNewest(h);
        pod.count++;
        size++;
        while (size > maxEntries) {
            unlink(holdings.oldest());
        }
        return h;
    }

    private void unlink(int h) {
        unlink(h, holdings.slotOf(holdings.key(h)));
    }

    /** Removes holding {@code h}, whose key is at table slot {@code slot}. */
    private void unlink(int h, int slot) {
        int pt = holdings.podTier(h);
        long key = holdings.key(h);
        int first = holdings.slotValue(slot);
        int head = first & ID_MASK;
        if (head == h) {
            head = holdings.nextOfKey(h);
        } else {
            int p = head;
            while (holdings.nextOfKey(p) != h) {
                p = holdings.nextOfKey(p);
            }
            holdings.setNextOfKey(p, holdings.nextOfKey(h));
        }
        int flag = first & SUMMARY;
        if (flag != 0) {
            long[] s = summaries.get(key);
            exclude(s, pt);
            if (count(s) <= summaryAt() / 2) { // not as soon as it is below: a key would flap
                summaries.remove(key);
                flag = 0;
            }
        }
        if (head == NONE) {
            holdings.removeSlot(slot);
        } else {
            holdings.setSlotValue(slot, head | flag);
        }
        if ((pt & SPECULATIVE) != 0) {
            expiries.remove(h);
        }
        holdings.unlinkOrder(h);
        if (!queued.isEmpty() && queued.containsKey(h)) {
            holdings.retire(h); // reused only once its queued expiries are gone: they mean this holding
        } else {
            holdings.free(h);
        }
        podsById[pt >>> POD_SHIFT].count--;
        size--;
    }

    // ---- summaries: long[] {speculative holdings, then per tier the bitset of pods holding the key confirmed there}

    /**
     * Holdings of one key from which it gets a summary: {@link #SUMMARY_AT}, or enough that the summary (a word per
     * tier and 64 pod ids) costs no more than 16 bytes a holding.
     */
    private int summaryAt() {
        return Math.max(SUMMARY_AT, (1 + tiers * podWords()) / 2);
    }

    private int words(long[] summary) {
        return (summary.length - 1) / tiers;
    }

    private long[] summarize(int head) {
        long[] s = new long[1 + tiers * podWords()];
        for (int h = head; h != NONE; h = holdings.nextOfKey(h)) {
            include(s, holdings.podTier(h));
        }
        return s;
    }

    /** The key's summary, grown to have a bit for {@code podId}. */
    private long[] summaryWithRoom(long key, int podId) {
        long[] s = summaries.get(key);
        int words = words(s);
        if (podId >>> 6 < words) {
            return s;
        }
        int grown = podWords();
        long[] g = new long[1 + tiers * grown];
        g[0] = s[0];
        for (int t = 0; t < tiers; t++) {
            System.arraycopy(s, 1 + t * words, g, 1 + t * grown, words);
        }
        summaries.put(key, g);
        return g;
    }

    private void include(long[] s, int podTier) {
        if ((podTier & SPECULATIVE) != 0) {
            s[0]++;
        } else {
            int pod = podTier >>> POD_SHIFT;
            s[1 + (podTier & TIER_MASK) * words(s) + (pod >>> 6)] |= 1L << pod;
        }
    }

    private void exclude(long[] s, int podTier) {
        if ((podTier & SPECULATIVE) != 0) {
            s[0]--;
        } else {
            int pod = podTier >>> POD_SHIFT;
            s[1 + (podTier & TIER_MASK) * words(s) + (pod >>> 6)] &= ~(1L << pod);
        }
    }

    /** Holdings a summary stands for. */
    private static long count(long[] s) {
        long n = s[0];
        for (int i = 1; i < s.length; i++) {
            n += Long.bitCount(s[i]);
        }
        return n;
    }

    private void expire(long nowNanos) {
        while (!speculative.isEmpty() && speculative.firstExpiry() <= nowNanos) {
            int h = speculative.firstId();
            speculative.removeFirst();
            long left = queued.get(h, 1) - 1;
            if (left == 0) {
                queued.remove(h);
            } else {
                queued.put(h, left);
            }
            if (!holdings.live(h)) {
                if (left == 0) {
                    holdings.reuse(h); // removed since; nothing names it any more
                }
            } else if ((holdings.podTier(h) & SPECULATIVE) != 0 && expiries.get(h, Long.MAX_VALUE) <= nowNanos) {
                unlink(h); // not confirmed or refreshed since
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
                podsById[pod.id] = null;
                if (freePodCount == freePodIds.length) {
                    freePodIds = Arrays.copyOf(freePodIds, freePodCount * 2);
                }
                freePodIds[freePodCount++] = pod.id;
            }
        } finally {
            lock.unlock();
        }
    }

    private void clearLocked(Pod pod) {
        // Rare (a reset, a restart): walk every holding rather than pay for a per-pod list on each one.
        for (int h = holdings.oldest(); h != NONE && pod.count > 0; ) {
            int next = holdings.newer(h);
            if (holdings.podTier(h) >>> POD_SHIFT == pod.id) {
                unlink(h);
            }
            h = next;
        }
        pod.engineToKey.clear();
    }

    private Pod pod(String name) {
        Pod pod = pods.get(name);
        if (pod != null) {
            return pod;
        }
        int id;
        if (freePodCount > 0) {
            id = freePodIds[--freePodCount];
        } else {
            if (podIds == Holdings.MAX_PODS) {
                throw new IllegalStateException("more than " + Holdings.MAX_PODS + " pods");
            }
            id = podIds++;
            growScratch();
        }
        pod = new Pod(name, id);
        podsById[id] = pod;
        pods.put(name, pod);
        return pod;
    }

    private int podWords() {
        return (podIds + 63) >>> 6;
    }

    private void growScratch() {
        if (podIds > podsById.length) {
            podsById = Arrays.copyOf(podsById, podsById.length * 2);
        }
        if (podIds > seenAt.length) {
            int n = seenAt.length * 2;
            seenAt = Arrays.copyOf(seenAt, n);
            best = Arrays.copyOf(best, n);
            score = Arrays.copyOf(score, n);
            resultEpoch = Arrays.copyOf(resultEpoch, n);
            resultMatched = Arrays.copyOf(resultMatched, n);
            resultScore = Arrays.copyOf(resultScore, n);
        }
        if (podWords() > running.length) {
            running = new long[running.length * 2];
            individual = new long[running.length];
            seen = new long[running.length];
        }
    }

    @Override
    public Match match(long[] keys, List<EndpointState> candidates, int snapshotSize, long nowNanos) {
        int[] matched = new int[snapshotSize];
        double[] weighted = new double[snapshotSize];
        lock.lock();
        try {
            expire(nowNanos);
            long e = ++epoch;
            runs(keys, nowNanos, e);
            for (EndpointState c : candidates) {
                Pod p = pods.get(c.name());
                if (p != null && resultEpoch[p.id] == e) {
                    matched[c.index()] = resultMatched[p.id];
                    weighted[c.index()] = resultScore[p.id];
                }
            }
        } finally {
            lock.unlock();
        }
        return new Match(matched, weighted, keys.length);
    }

    /**
     * Follows every pod's run of leading blocks at once, leaving each pod's result stamped with {@code e}. A run's
     * score is the sum, block by block, of each block's best tier weight; while every block of a run was on the
     * heaviest tier, that sum is the same for every such run ({@code common}), so only runs with a lighter block keep
     * their own ({@link #individual}).
     */
    private void runs(long[] keys, long nowNanos, long e) {
        int words = podWords();
        Arrays.fill(running, 0, words, 0);
        Arrays.fill(individual, 0, words, 0);
        double common = 0;
        int i = 0;
        for (; i < keys.length; i++) {
            int first = holdings.head(keys[i]);
            if (first == 0) {
                break;
            }
            boolean any;
            if ((first & SUMMARY) != 0) {
                long[] s = summaries.get(keys[i]);
                any = s[0] == 0 ? intersect(s, i, common, words, e)
                        : walk(first & ID_MASK, i, common, words, nowNanos, e);
            } else {
                int h = first & ID_MASK;
                int pt = holdings.podTier(h);
                any = holdings.nextOfKey(h) == NONE && (pt & SPECULATIVE) == 0
                        ? single(pt, i, common, words, e)
                        : walk(h, i, common, words, nowNanos, e);
            }
            if (!any) {
                return; // every run ended here, and was finished
            }
            common += topWeight;
        }
        for (int w = 0; w < words; w++) {
            for (long b = running[w]; b != 0; b &= b - 1) {
                finish((w << 6) | Long.numberOfTrailingZeros(b), i, common, e);
            }
        }
    }

    /** Block {@code i}, from its summary. Returns whether any run reaches it. */
    private boolean intersect(long[] s, int i, double common, int words, long e) {
        int sw = words(s);
        boolean any = false;
        for (int w = 0; w < words; w++) {
            long run = i == 0 ? -1L : running[w];
            if (run == 0) {
                continue;
            }
            long held = 0;
            long top = 0;
            if (w < sw) {
                for (int t = 0; t < tiers; t++) {
                    held |= s[1 + t * sw + w];
                }
                top = s[1 + topTier * sw + w];
            }
            long next = run & held;
            if (i > 0) {
                for (long ended = run & ~next; ended != 0; ended &= ended - 1) {
                    finish((w << 6) | Long.numberOfTrailingZeros(ended), i, common, e);
                }
            }
            running[w] = next;
            if (next == 0) {
                continue;
            }
            any = true;
            for (long b = next & top & individual[w]; b != 0; b &= b - 1) {
                score[(w << 6) | Long.numberOfTrailingZeros(b)] += topWeight;
            }
            for (long b = next & ~top; b != 0; b &= b - 1) {
                long bit = b & -b;
                double weight = 0;
                for (int k = 1; k < tiers; k++) {
                    int t = tiersByWeight[k];
                    if ((s[1 + t * sw + w] & bit) != 0) {
                        weight = tierWeights[t];
                        break;
                    }
                }
                advance((w << 6) | Long.numberOfTrailingZeros(b), w, bit, weight, common);
            }
        }
        return any;
    }

    /** Block {@code i}, held by one pod on one tier, confirmed (the most common block). Returns whether a run reaches it. */
    private boolean single(int podTier, int i, double common, int words, long e) {
        int p = podTier >>> POD_SHIFT;
        int pw = p >>> 6;
        long bit = 1L << p;
        boolean reached = i == 0 || (running[pw] & bit) != 0;
        if (i > 0) {
            for (int w = 0; w < words; w++) {
                long ended = running[w] & (reached && w == pw ? ~bit : -1L);
                for (; ended != 0; ended &= ended - 1) {
                    finish((w << 6) | Long.numberOfTrailingZeros(ended), i, common, e);
                }
                running[w] = 0;
            }
        }
        if (reached) {
            running[pw] = bit;
            advance(p, pw, bit, tierWeights[podTier & TIER_MASK], common);
        }
        return reached;
    }

    /** Block {@code i}, from its chain of holdings. Returns whether any run reaches it. */
    private boolean walk(int head, int i, double common, int words, long nowNanos, long e) {
        long stamp = ++walks;
        for (int h = head; h != NONE; h = holdings.nextOfKey(h)) {
            int pt = holdings.podTier(h);
            if ((pt & SPECULATIVE) != 0 && expiries.get(h, Long.MIN_VALUE) <= nowNanos) {
                continue;
            }
            int p = pt >>> POD_SHIFT;
            int w = p >>> 6;
            long bit = 1L << p;
            if (i > 0 && (running[w] & bit) == 0) {
                continue;
            }
            double weight = tierWeights[pt & TIER_MASK];
            if (seenAt[p] != stamp) {
                seenAt[p] = stamp;
                best[p] = weight;
                seen[w] |= bit;
            } else if (weight > best[p]) {
                best[p] = weight;
            }
        }
        boolean any = false;
        for (int w = 0; w < words; w++) {
            long next = seen[w];
            if (i > 0) {
                for (long ended = running[w] & ~next; ended != 0; ended &= ended - 1) {
                    finish((w << 6) | Long.numberOfTrailingZeros(ended), i, common, e);
                }
            }
            running[w] = next;
            if (next == 0) {
                continue;
            }
            seen[w] = 0;
            any = true;
            for (long b = next; b != 0; b &= b - 1) {
                int p = (w << 6) | Long.numberOfTrailingZeros(b);
                advance(p, w, b & -b, best[p], common);
            }
        }
        return any;
    }

    /** Pod {@code p}'s run takes in a block at {@code weight}; {@code common} is the score of runs all on top so far. */
    private void advance(int p, int w, long bit, double weight, double common) {
        if ((individual[w] & bit) != 0) {
            score[p] += weight;
        } else if (weight != topWeight) {
            individual[w] |= bit;
            score[p] = common + weight;
        }
    }

    /** Pod {@code p}'s run ended before block {@code i}. */
    private void finish(int p, int i, double common, long e) {
        resultEpoch[p] = e;
        resultMatched[p] = i;
        resultScore[p] = (individual[p >>> 6] & (1L << p)) != 0 ? score[p] : common;
    }

    private int tier(String medium) {
        if (medium == null) {
            return gpuTier;
        }
        if (!medium.equals(lastMedium)) { // events name one or two media: spare lower-casing each
            lastMediumTier = indexOf(StoredBlocks.tierName(medium));
            lastMedium = medium;
        }
        return lastMediumTier;
    }

    private int indexOf(String name) {
        for (int i = 0; i < tierNames.length; i++) {
            if (tierNames[i].equals(name)) {
                return i;
            }
        }
        return tierNames.length;
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
            map(pod(podName), engineHash, key);
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
