package dev.homing.router.record;

/**
 * Numbers 64-bit keys in first-seen order, 0, 1, 2, ...: what lets a trace show which blocks (or sessions) are equal
 * without the hash that would identify their content. Bounded: once {@code limit} keys are numbered it takes no more
 * ({@link #fits} says so beforehand), and the writer starts a new file with a fresh numbering. Open addressing over
 * primitive arrays, so a million keys take about 24 MiB rather than a boxed map's 90. Confined to the writer thread.
 */
final class Renumbering {

    private static final int EMPTY = -1;

    private final int limit;
    private long[] keys;
    private int[] values;
    private int size;

    Renumbering(int limit) {
        this.limit = limit;
        clear();
    }

    /** Whether {@code more} new keys can still be numbered. */
    boolean fits(int more) {
        return size + more <= limit;
    }

    int size() {
        return size;
    }

    /** The key's number, giving it the next one when it is new; the caller checked {@link #fits} first. */
    int number(long key) {
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (values[i] != EMPTY) {
            if (keys[i] == key) {
                return values[i];
            }
            i = (i + 1) & mask;
        }
        if (size >= limit) {
            throw new IllegalStateException("renumbering is full (" + limit + " keys)");
        }
        keys[i] = key;
        values[i] = size;
        size++;
        if (size * 2 > keys.length) {
            grow();
        }
        return size - 1;
    }

    /** Whether the key has a number already. */
    boolean contains(long key) {
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (values[i] != EMPTY) {
            if (keys[i] == key) {
                return true;
            }
            i = (i + 1) & mask;
        }
        return false;
    }

    /** Forgets every number: the next key is 0 again. */
    void clear() {
        keys = new long[64];
        values = new int[64];
        java.util.Arrays.fill(values, EMPTY);
        size = 0;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        java.util.Arrays.fill(values, EMPTY);
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldValues[j] != EMPTY) {
                int i = mix(oldKeys[j]) & mask;
                while (values[i] != EMPTY) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                values[i] = oldValues[j];
            }
        }
    }

    private static int mix(long key) {
        long z = key * 0x9E3779B97F4A7C15L;
        return (int) (z ^ (z >>> 32));
    }
}
