package dev.homing.core.collect;

import java.util.Arrays;

/**
 * A hash map from {@code long} keys to objects, without boxing: open addressing with linear probing (at most 3/4 full) and backward-shift
 * deletion (no tombstones, so lookups stay short however many entries come and go). Prefix indexes look up hundreds of
 * block hashes per request under a lock; boxing each key cost more than the lookup. Not thread-safe; values non-null.
 */
public final class LongKeyMap<V> {

    private static final int MIN_CAPACITY = 16;

    private long[] keys;
    private Object[] values;
    private int mask;
    private int size;

    public LongKeyMap() {
        this(MIN_CAPACITY);
    }

    public LongKeyMap(int expected) {
        int capacity = Integer.highestOneBit(Math.max(MIN_CAPACITY, expected * 4 / 3)) << 1;
        keys = new long[capacity];
        values = new Object[capacity];
        mask = capacity - 1;
    }

    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L; // Fibonacci hashing spreads keys that differ only in high bits
        return (int) (h ^ (h >>> 32)) & mask;
    }

    @SuppressWarnings("unchecked")
    public V get(long key) {
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            Object v = values[i];
            if (v == null) {
                return null;
            }
            if (keys[i] == key) {
                return (V) v;
            }
        }
    }

    /** @return the previous value, or null */
    @SuppressWarnings("unchecked")
    public V put(long key, V value) {
        if (value == null) {
            throw new NullPointerException("value");
        }
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            Object v = values[i];
            if (v == null) {
                keys[i] = key;
                values[i] = value;
                if (++size * 4 > values.length * 3) {
                    grow();
                }
                return null;
            }
            if (keys[i] == key) {
                values[i] = value;
                return (V) v;
            }
        }
    }

    /** @return the removed value, or null */
    @SuppressWarnings("unchecked")
    public V remove(long key) {
        int i = slot(key, mask);
        while (true) {
            Object v = values[i];
            if (v == null) {
                return null;
            }
            if (keys[i] == key) {
                shiftBack(i);
                size--;
                return (V) v;
            }
            i = (i + 1) & mask;
        }
    }

    /** Closes the gap at {@code hole}, moving later entries of the same probe run back into it. */
    private void shiftBack(int hole) {
        int j = hole;
        while (true) {
            j = (j + 1) & mask;
            if (values[j] == null) {
                break;
            }
            int home = slot(keys[j], mask);
            // Move the entry at j into the hole unless its home lies cyclically in (hole, j].
            boolean homeBetween = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
            if (!homeBetween) {
                keys[hole] = keys[j];
                values[hole] = values[j];
                hole = j;
            }
        }
        values[hole] = null;
    }

    private void grow() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new Object[oldValues.length * 2];
        mask = values.length - 1;
        for (int i = 0; i < oldValues.length; i++) {
            if (oldValues[i] != null) {
                for (int j = slot(oldKeys[i], mask); ; j = (j + 1) & mask) {
                    if (values[j] == null) {
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

    public boolean isEmpty() {
        return size == 0;
    }

    public void clear() {
        Arrays.fill(values, null);
        size = 0;
    }

    /** Slots allocated, for memory accounting. */
    public int capacity() {
        return values.length;
    }
}
