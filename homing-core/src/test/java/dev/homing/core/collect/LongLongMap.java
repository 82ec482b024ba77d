package dev.homing.core.collect;

import java.util.Arrays;

/**
 * A hash map from {@code long} to {@code long}, without boxing: open addressing with linear probing and
 * backward-shift deletion. An engine's block hash maps to the router's key for the same block this way, one entry
 * per block a pod holds. Kept for the reference model of the precise index in tests; production code uses
 * {@link CompactLongLongMap}. Not thread-safe.
 */
public final class LongLongMap {

    private static final int MIN_CAPACITY = 16;

    private long[] keys;
    private long[] values;
    private boolean[] used;
    private int mask;
    private int size;

    public LongLongMap() {
        this(MIN_CAPACITY);
    }

    public LongLongMap(int expected) {
        int capacity = Integer.highestOneBit(Math.max(MIN_CAPACITY, expected * 4 / 3)) << 1;
        allocate(capacity);
    }

    private void allocate(int capacity) {
        keys = new long[capacity];
        values = new long[capacity];
        used = new boolean[capacity];
        mask = capacity - 1;
    }

    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    public boolean containsKey(long key) {
        return find(key) >= 0;
    }

    /** The value for {@code key}, or {@code missing}. */
    public long get(long key, long missing) {
        int i = find(key);
        return i < 0 ? missing : values[i];
    }

    private int find(long key) {
        for (int i = slot(key, mask); used[i]; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return i;
            }
        }
        return -1;
    }

    public void put(long key, long value) {
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            if (!used[i]) {
                used[i] = true;
                keys[i] = key;
                values[i] = value;
                if (++size * 4 > keys.length * 3) {
                    grow();
                }
                return;
            }
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
        }
    }

    /** Removes {@code key}; returns its value, or {@code missing} when it was absent. */
    public long remove(long key, long missing) {
        int i = find(key);
        if (i < 0) {
            return missing;
        }
        long v = values[i];
        int hole = i;
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            if (!used[j]) {
                break;
            }
            int home = slot(keys[j], mask);
            boolean homeBetween = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
            if (!homeBetween) {
                keys[hole] = keys[j];
                values[hole] = values[j];
                hole = j;
            }
        }
        used[hole] = false;
        size--;
        return v;
    }

    private void grow() {
        long[] oldKeys = keys;
        long[] oldValues = values;
        boolean[] oldUsed = used;
        allocate(oldKeys.length * 2);
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldUsed[i]) {
                for (int j = slot(oldKeys[i], mask); ; j = (j + 1) & mask) {
                    if (!used[j]) {
                        used[j] = true;
                        keys[j] = oldKeys[i];
                        values[j] = oldValues[i];
                        break;
                    }
                }
            }
        }
    }

    public int size() {
        return size;
    }

    public void clear() {
        Arrays.fill(used, false);
        size = 0;
    }

    /** Slots allocated, for memory accounting. */
    public int capacity() {
        return keys.length;
    }
}
