package dev.homing.core.collect;

/**
 * A hash map from {@code long} to {@code long} that stays small when large: open addressing with linear probing (at
 * most 3/4 full) and backward-shift deletion, each slot a key and its value side by side (16 bytes, one cache line
 * touched per probe; the key 0 marks a free slot and is kept beside the table), in pages of 128 KiB. Pages keep a big
 * table out of G1's humongous regions: an array of 2^k longs plus its header needs one more region than its data, so
 * a 4 MiB table took 8 MiB of a heap with 4 MiB regions. Not thread-safe.
 */
public final class CompactLongLongMap {

    private static final int MIN_CAPACITY = 16;
    private static final int PAGE_BITS = 13; // slots per page: 2^13 slots of two longs = 128 KiB
    private static final int PAGE_SLOTS = 1 << PAGE_BITS;
    private static final int PAGE_MASK = PAGE_SLOTS - 1;

    private long[][] pages;
    private int mask;
    private int size; // entries in the table: the zero key not included
    private boolean hasZero;
    private long zeroValue;

    public CompactLongLongMap() {
        this(MIN_CAPACITY);
    }

    public CompactLongLongMap(int expected) {
        allocate(capacityFor(expected));
    }

    private static int capacityFor(int expected) {
        if (expected > 1 << 29) {
            throw new IllegalArgumentException("too many entries: " + expected);
        }
        return Integer.highestOneBit(Math.max(MIN_CAPACITY, expected * 4 / 3)) << 1;
    }

    private void allocate(int capacity) {
        if (capacity <= PAGE_SLOTS) {
            pages = new long[][] {new long[capacity * 2]};
        } else {
            pages = new long[capacity >>> PAGE_BITS][];
            for (int p = 0; p < pages.length; p++) {
                pages[p] = new long[PAGE_SLOTS * 2];
            }
        }
        mask = capacity - 1;
    }

    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L; // Fibonacci hashing spreads keys that differ only in high bits
        return (int) (h ^ (h >>> 32)) & mask;
    }

    /** The slot holding {@code key} (not 0), or -1. */
    private int find(long key) {
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            long k = pages[i >>> PAGE_BITS][(i & PAGE_MASK) << 1];
            if (k == key) {
                return i;
            }
            if (k == 0) {
                return -1;
            }
        }
    }

    public boolean containsKey(long key) {
        return key == 0 ? hasZero : find(key) >= 0;
    }

    /** The value for {@code key}, or {@code missing} (which may also be a value: see {@link #containsKey}). */
    public long get(long key, long missing) {
        if (key == 0) {
            return hasZero ? zeroValue : missing;
        }
        int i = find(key);
        return i < 0 ? missing : pages[i >>> PAGE_BITS][((i & PAGE_MASK) << 1) + 1];
    }

    public void put(long key, long value) {
        if (key == 0) {
            hasZero = true;
            zeroValue = value;
            return;
        }
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            long[] page = pages[i >>> PAGE_BITS];
            int o = (i & PAGE_MASK) << 1;
            if (page[o] == key) {
                page[o + 1] = value;
                return;
            }
            if (page[o] == 0) {
                page[o] = key;
                page[o + 1] = value;
                if (++size * 4L > (mask + 1L) * 3) {
                    grow();
                }
                return;
            }
        }
    }

    /** Removes {@code key}; returns whether it was there. */
    public boolean remove(long key) {
        if (key == 0) {
            boolean had = hasZero;
            hasZero = false;
            return had;
        }
        int hole = find(key);
        if (hole < 0) {
            return false;
        }
        for (int j = (hole + 1) & mask; ; j = (j + 1) & mask) {
            long[] page = pages[j >>> PAGE_BITS];
            int o = (j & PAGE_MASK) << 1;
            long k = page[o];
            if (k == 0) {
                break;
            }
            int home = slot(k, mask);
            // Move the entry at j into the hole unless its home lies cyclically in (hole, j].
            boolean homeBetween = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
            if (!homeBetween) {
                long[] to = pages[hole >>> PAGE_BITS];
                int t = (hole & PAGE_MASK) << 1;
                to[t] = k;
                to[t + 1] = page[o + 1];
                hole = j;
            }
        }
        pages[hole >>> PAGE_BITS][(hole & PAGE_MASK) << 1] = 0;
        size--;
        return true;
    }

    private void grow() {
        long[][] old = pages;
        allocate((mask + 1) * 2);
        for (long[] page : old) {
            for (int o = 0; o < page.length; o += 2) {
                long k = page[o];
                if (k != 0) {
                    for (int j = slot(k, mask); ; j = (j + 1) & mask) {
                        long[] to = pages[j >>> PAGE_BITS];
                        int t = (j & PAGE_MASK) << 1;
                        if (to[t] == 0) {
                            to[t] = k;
                            to[t + 1] = page[o + 1];
                            break;
                        }
                    }
                }
            }
        }
    }

    public int size() {
        return size + (hasZero ? 1 : 0);
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    /** Removes every entry and gives the table's memory back. */
    public void clear() {
        allocate(MIN_CAPACITY);
        size = 0;
        hasZero = false;
    }

    /** Slots allocated, for memory accounting. */
    public int capacity() {
        return mask + 1;
    }
}
