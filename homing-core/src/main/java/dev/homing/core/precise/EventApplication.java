package dev.homing.core.precise;

import dev.homing.protocol.kvevents.AllBlocksCleared;
import dev.homing.protocol.kvevents.BlockRemoved;
import dev.homing.protocol.kvevents.BlockStored;
import dev.homing.protocol.kvevents.EventBlockHash;
import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.List;
import java.util.Set;

/**
 * What a pod's KV-cache events do to an {@link InMemoryPreciseIndex}: a {@code BlockStored} keys its blocks (from its
 * parent's key, through the pod's engine-hash map) and holds them, a {@code BlockRemoved} resolves its engine hashes
 * and removes those holdings, an {@code AllBlocksCleared} drops the pod's holdings and mappings. Not thread-safe.
 */
final class EventApplication {

    private static final long UNMAPPED = Long.MIN_VALUE; // asked of engine maps; a key may be this too, so re-checked

    private final long maxEntries;
    private final int blockSize;
    private final long seed;
    private final Tiers tiers;
    private final BoundedHoldings bounded;
    private final Set<String> adapters;
    private final IndexCounters counters;

    /** @param adapters the index's adapters, which a chain starting from one adds to */
    EventApplication(long maxEntries, int blockSize, long seed, Tiers tiers, BoundedHoldings bounded,
            Set<String> adapters, IndexCounters counters) {
        this.maxEntries = maxEntries;
        this.blockSize = blockSize;
        this.seed = seed;
        this.tiers = tiers;
        this.bounded = bounded;
        this.adapters = adapters;
        this.counters = counters;
    }

    /**
     * Applies a pod's batch and tells {@code changes} (when not null) what it did, in order.
     *
     * @return events that could not be keyed
     */
    int apply(Pod pod, List<KvCacheEvent> events, IndexChanges changes) {
        int skipped = 0;
        for (KvCacheEvent e : events) {
            switch (e) {
                case BlockStored s -> skipped += stored(pod, s, changes) ? 0 : 1;
                case BlockRemoved r -> removed(pod, r, changes);
                case AllBlocksCleared c -> {
                    clear(pod);
                    counters.cleared();
                    if (changes != null) {
                        changes.cleared();
                    }
                }
            }
        }
        return skipped;
    }

    private boolean stored(Pod pod, BlockStored s, IndexChanges changes) {
        List<EventBlockHash> hashes = s.blockHashes();
        int tier = tiers.of(s.medium());
        if (s.tokenCount() == 0) {
            // A copy of blocks the pod already holds, to another tier (CPU offload): same keys, new tier.
            for (EventBlockHash h : hashes) {
                long engine = h.asUint64();
                long key = pod.engineToKey.get(engine, UNMAPPED);
                if (key == UNMAPPED && !pod.engineToKey.containsKey(engine)) {
                    counters.unresolved();
                    continue;
                }
                bounded.hold(pod, key, tier, 0);
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
            bounded.hold(pod, keys[i], tier, 0); // tail first, so that the bound evicts prefixes from their tails
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
    void map(Pod pod, long engine, long key) {
        if (pod.engineToKey.size() >= maxEntries && !pod.engineToKey.containsKey(engine)) {
            pod.engineToKey.clear();
        }
        pod.engineToKey.put(engine, key);
    }

    private void removed(Pod pod, BlockRemoved r, IndexChanges changes) {
        int tier = tiers.of(r.medium());
        for (EventBlockHash hash : r.blockHashes()) {
            long engine = hash.asUint64();
            if (changes != null) {
                changes.removed(r.medium(), engine);
            }
            long key = pod.engineToKey.get(engine, UNMAPPED);
            if (key == UNMAPPED && !pod.engineToKey.containsKey(engine)) {
                continue;
            }
            int found = bounded.remove(pod, key, tier);
            if ((found & BoundedHoldings.REMOVED) != 0) {
                counters.removed();
            }
            if ((found & BoundedHoldings.OTHER_TIER) == 0) {
                pod.engineToKey.remove(engine); // no tier left: forget the mapping too
            }
        }
    }

    /** Everything the pod held is gone, and what its engine hashes stood for. */
    void clear(Pod pod) {
        bounded.removeAll(pod);
        pod.engineToKey.clear();
    }
}
