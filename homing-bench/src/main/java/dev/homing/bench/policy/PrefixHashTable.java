package dev.homing.bench.policy;

import net.openhft.hashing.LongHashFunction;

/**
 * AIBrix's approximate prefix table ({@code pkg/utils/prefixcacheindexer/hash.go}, {@code pkg/utils/lrustore}): the
 * request's bytes cut into blocks of {@code blockSize} bytes (the incomplete tail is not hashed), each hashed with
 * xxhash64 over its parent's hash and its bytes, and a store from block hash to the pods it was routed to.
 *
 * <p>Bound and eviction as AIBrix's {@code LRUStore}: at most {@code capacity} blocks; adding a block puts it at the
 * head (lookups do not), the least recently added leaves when the store is over capacity, and blocks not added for
 * {@code ttl} leave at the next sweep. Up to 64 pods.
 */
final class PrefixHashTable {

    private static final int NIL = -1;

    private final int blockSize;
    private final int capacity;
    private final long ttlNanos;
    private final long seed;
    private final LongHashFunction xx;
    private final byte[] scratch;
    private final LongTable slotOf;
    private final long[] keys;
    private final long[] pods;
    private final long[] touched;
    private final int[] prev;
    private final int[] next;
    private final int[] free;
    private int freeTop;
    private int head = NIL;
    private int tail = NIL;
    private int size;

    PrefixHashTable(int blockSize, int capacity, long ttlNanos, long seed) {
        this.blockSize = blockSize;
        this.capacity = capacity;
        this.ttlNanos = ttlNanos;
        this.seed = seed;
        this.xx = LongHashFunction.xx(seed);
        this.scratch = new byte[8 + blockSize];
        this.slotOf = new LongTable(capacity);
        this.keys = new long[capacity + 1];
        this.pods = new long[capacity + 1];
        this.touched = new long[capacity + 1];
        this.prev = new int[capacity + 1];
        this.next = new int[capacity + 1];
        this.free = new int[capacity + 1];
        for (int i = capacity; i >= 0; i--) {
            free[freeTop++] = i;
        }
    }

    /** The chained hashes of the full blocks of {@code bytes}; the first block's parent is the seed. */
    long[] hashes(byte[] bytes) {
        int n = bytes.length / blockSize;
        long[] out = new long[n];
        long parent = seed;
        for (int i = 0; i < n; i++) {
            for (int b = 0; b < 8; b++) {
                scratch[b] = (byte) (parent >>> (8 * b)); // little-endian, as binary.LittleEndian.PutUint64
            }
            System.arraycopy(bytes, i * blockSize, scratch, 8, blockSize);
            parent = xx.hashBytes(scratch);
            out[i] = parent;
        }
        return out;
    }

    /** Pods the block was routed to, as a bit set; 0 when it is not in the store. */
    long podsOf(long hash) {
        int s = (int) slotOf.get(hash, NIL);
        return s == NIL ? 0 : pods[s];
    }

    /** Records that every block was routed to {@code pod} now, in order (AIBrix's {@code AddPrefix}). */
    void add(long[] hashes, int pod, long nowNanos) {
        for (long h : hashes) {
            put(h, 1L << pod, nowNanos);
        }
    }

    /** Drops the blocks not added for longer than the TTL. */
    void expire(long nowNanos) {
        while (tail != NIL && nowNanos - touched[tail] > ttlNanos) {
            drop(tail);
        }
    }

    int size() {
        return size;
    }

    private void put(long hash, long podBit, long now) {
        int s = (int) slotOf.get(hash, NIL);
        if (s != NIL) {
            pods[s] |= podBit;
            touched[s] = now;
            unlink(s);
            linkHead(s);
            return;
        }
        s = free[--freeTop];
        keys[s] = hash;
        pods[s] = podBit;
        touched[s] = now;
        slotOf.put(hash, s);
        linkHead(s);
        if (++size > capacity) {
            drop(tail);
        }
    }

    private void drop(int s) {
        unlink(s);
        slotOf.remove(keys[s], NIL);
        free[freeTop++] = s;
        size--;
    }

    private void linkHead(int s) {
        prev[s] = NIL;
        next[s] = head;
        if (head != NIL) {
            prev[head] = s;
        }
        head = s;
        if (tail == NIL) {
            tail = s;
        }
    }

    private void unlink(int s) {
        int p = prev[s];
        int q = next[s];
        if (p != NIL) {
            next[p] = q;
        } else {
            head = q;
        }
        if (q != NIL) {
            prev[q] = p;
        } else {
            tail = p;
        }
    }
}
