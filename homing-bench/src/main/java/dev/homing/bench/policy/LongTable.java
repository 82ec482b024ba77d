package dev.homing.bench.policy;

import java.util.Arrays;

/**
 * A map from {@code long} to {@code long} without boxing (open addressing, linear probing, backward-shift deletion,
 * at most half full), that can also be walked. The peer indexes look up every block of every prompt; boxed keys
 * would cost more than the routing they model. Not thread-safe.
 */
final class LongTable {

    /** Receives one entry of a walk. */
    @FunctionalInterface
    interface EntryConsumer {
        void accept(long key, long value);
    }

    private long[] keys;
    private long[] values;
    private boolean[] used;
    private int size;
    private int mask;

    LongTable() {
        this(16);
    }

    LongTable(int expected) {
        int cap = Integer.highestOneBit(Math.max(8, expected * 2 - 1)) << 1;
        allocate(cap);
    }

    private void allocate(int cap) {
        keys = new long[cap];
        values = new long[cap];
        used = new boolean[cap];
        mask = cap - 1;
    }

    int size() {
        return size;
    }

    boolean containsKey(long key) {
        return slot(key) >= 0;
    }

    long get(long key, long missing) {
        int s = slot(key);
        return s < 0 ? missing : values[s];
    }

    void put(long key, long value) {
        int i = mix(key) & mask;
        while (used[i]) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        used[i] = true;
        keys[i] = key;
        values[i] = value;
        if (++size * 2 > keys.length) {
            grow();
        }
    }

    /** Adds {@code delta} to the value of {@code key} (absent counts as 0); returns the new value. */
    long add(long key, long delta) {
        int s = slot(key);
        if (s >= 0) {
            values[s] += delta;
            return values[s];
        }
        put(key, delta);
        return delta;
    }

    long remove(long key, long missing) {
        int s = slot(key);
        if (s < 0) {
            return missing;
        }
        long old = values[s];
        size--;
        int hole = s;
        int i = (s + 1) & mask;
        while (used[i]) {
            int home = mix(keys[i]) & mask;
            // Move the entry back into the hole when its probe run passes through the hole.
            if (((i - home) & mask) >= ((i - hole) & mask)) {
                keys[hole] = keys[i];
                values[hole] = values[i];
                hole = i;
            }
            i = (i + 1) & mask;
        }
        used[hole] = false;
        return old;
    }

    void forEach(EntryConsumer consumer) {
        for (int i = 0; i < keys.length; i++) {
            if (used[i]) {
                consumer.accept(keys[i], values[i]);
            }
        }
    }

    void clear() {
        Arrays.fill(used, false);
        size = 0;
    }

    private int slot(long key) {
        int i = mix(key) & mask;
        while (used[i]) {
            if (keys[i] == key) {
                return i;
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    private void grow() {
        long[] k = keys;
        long[] v = values;
        boolean[] u = used;
        allocate(k.length * 2);
        size = 0;
        for (int i = 0; i < k.length; i++) {
            if (u[i]) {
                put(k[i], v[i]);
            }
        }
    }

    private static int mix(long key) {
        long h = key * 0x9E37_79B9_7F4A_7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
