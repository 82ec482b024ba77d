package dev.homing.core.learned;

import dev.homing.core.collect.LongKeyMap;
import dev.homing.core.endpoint.EndpointState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The approximate prefix index in this process's memory.
 *
 * <p>Bounded twice: each endpoint keeps at most its capacity in blocks (its KV cache size when known), and the whole
 * index at most {@code maxEntries} (endpoint, block) entries; beyond either, the least recently used entry goes. Every
 * entry sits in two intrusive lists (its endpoint's and the global one), so both evictions are O(1).
 * A prompt's blocks are recorded tail first, so that the head of a prefix is the freshest entry and eviction eats
 * prefixes from their tails, as a KV cache does.
 */
public final class InMemoryApproxIndex implements ApproxIndex {

    private final long maxEntries;
    private final ReentrantLock lock = new ReentrantLock();
    private final LongKeyMap<Entry> byHash = new LongKeyMap<>(1024);
    private final Map<String, Holder> holders = new HashMap<>();
    private final Entry global = Entry.sentinel();
    private long size;
    private long matchEpoch;
    private int records; // stamps each record, so that forgetting one leaves what later records touched

    public InMemoryApproxIndex(long maxEntries) {
        if (maxEntries <= 0) {
            throw new IllegalArgumentException("maxEntries must be > 0");
        }
        this.maxEntries = maxEntries;
    }

    /** An endpoint holding blocks. */
    private static final class Holder {
        final String name;
        final Entry lru = Entry.sentinel();
        long capacity;
        long count;
        long matchEpoch = -1;
        int matched;

        Holder(String name) {
            this.name = name;
        }
    }

    /** One (block, endpoint) pair. */
    private static final class Entry {
        final long hash;
        final Holder holder;
        int stamp; // the record that touched it last
        Entry sameHashNext;
        Entry podPrev = this;
        Entry podNext = this;
        Entry globalPrev = this;
        Entry globalNext = this;

        Entry(long hash, Holder holder) {
            this.hash = hash;
            this.holder = holder;
        }

        static Entry sentinel() {
            return new Entry(0, null);
        }
    }

    @Override
    public int record(String endpoint, long[] hashes, long capacity) {
        if (hashes.length == 0) {
            return 0;
        }
        lock.lock();
        try {
            int stamp = ++records;
            Holder h = holders.computeIfAbsent(endpoint, Holder::new);
            h.capacity = Math.max(1, capacity);
            for (int i = hashes.length - 1; i >= 0; i--) {
                touch(h, hashes[i], stamp);
            }
            while (h.count > h.capacity) {
                remove(h.lru.podNext);
            }
            while (size > maxEntries) {
                remove(global.globalNext);
            }
            return stamp;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int[] match(long[] hashes, List<EndpointState> candidates, int snapshotSize) {
        int[] matched = new int[snapshotSize];
        if (hashes.length == 0) {
            return matched;
        }
        lock.lock();
        try {
            long epoch = ++matchEpoch;
            for (int i = 0; i < hashes.length; i++) {
                boolean advanced = false;
                for (Entry e = byHash.get(hashes[i]); e != null; e = e.sameHashNext) {
                    Holder h = e.holder;
                    if (i == 0) {
                        h.matchEpoch = epoch;
                        h.matched = 1;
                        advanced = true;
                    } else if (h.matchEpoch == epoch && h.matched == i) {
                        h.matched = i + 1;
                        advanced = true;
                    }
                }
                if (!advanced) {
                    break;
                }
            }
            for (EndpointState c : candidates) {
                Holder h = holders.get(c.name());
                if (h != null && h.matchEpoch == epoch) {
                    matched[c.index()] = h.matched;
                }
            }
            return matched;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void forget(String endpoint, long[] hashes, int from, int stamp) {
        lock.lock();
        try {
            Holder h = holders.get(endpoint);
            if (h == null) {
                return;
            }
            for (int i = Math.max(0, from); i < hashes.length; i++) {
                for (Entry e = byHash.get(hashes[i]); e != null; e = e.sameHashNext) {
                    if (e.holder == h) {
                        if (e.stamp == stamp) {
                            remove(e);
                        }
                        break;
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void removeEndpoint(String endpoint) {
        lock.lock();
        try {
            Holder h = holders.remove(endpoint);
            if (h == null) {
                return;
            }
            while (h.lru.podNext != h.lru) {
                remove(h.lru.podNext);
            }
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
    public long size(String endpoint) {
        lock.lock();
        try {
            Holder h = holders.get(endpoint);
            return h == null ? 0 : h.count;
        } finally {
            lock.unlock();
        }
    }

    private void touch(Holder h, long hash, int stamp) {
        Entry head = byHash.get(hash);
        for (Entry e = head; e != null; e = e.sameHashNext) {
            if (e.holder == h) {
                e.stamp = stamp;
                unlinkPod(e);
                unlinkGlobal(e);
                linkNewest(e);
                return;
            }
        }
        Entry e = new Entry(hash, h);
        e.stamp = stamp;
        e.sameHashNext = head;
        byHash.put(hash, e);
        linkNewest(e);
        h.count++;
        size++;
    }

    private void linkNewest(Entry e) {
        Entry podSentinel = e.holder.lru;
        e.podPrev = podSentinel.podPrev;
        e.podNext = podSentinel;
        podSentinel.podPrev.podNext = e;
        podSentinel.podPrev = e;
        e.globalPrev = global.globalPrev;
        e.globalNext = global;
        global.globalPrev.globalNext = e;
        global.globalPrev = e;
    }

    private static void unlinkPod(Entry e) {
        e.podPrev.podNext = e.podNext;
        e.podNext.podPrev = e.podPrev;
    }

    private static void unlinkGlobal(Entry e) {
        e.globalPrev.globalNext = e.globalNext;
        e.globalNext.globalPrev = e.globalPrev;
    }

    private void remove(Entry e) {
        unlinkPod(e);
        unlinkGlobal(e);
        Entry head = byHash.get(e.hash);
        if (head == e) {
            if (e.sameHashNext == null) {
                byHash.remove(e.hash);
            } else {
                byHash.put(e.hash, e.sameHashNext);
            }
        } else {
            Entry prev = head;
            while (prev.sameHashNext != e) {
                prev = prev.sameHashNext;
            }
            prev.sameHashNext = e.sameHashNext;
        }
        e.holder.count--;
        size--;
    }
}
