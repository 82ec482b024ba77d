package dev.homing.core.precise;

/**
 * Speculative holds by expiry, the earliest first: a binary min-heap of (expiry, holding id) pairs. It checks nothing
 * itself: {@link SpeculativeHolds} keeps an id from being handed out again while an entry names it, and
 * {@link SpeculativeHolds#nextExpired}, when an entry's time comes, checks that the holding is still there,
 * speculative and expired (it may since have been removed, confirmed, or refreshed to a later expiry, which queued
 * another entry).
 *
 * <p>By expiry, not in the order the holds were made: a hold cut short (a pick whose pod could not be reached,
 * settled at once) queues an entry with its new, early expiry, and that entry must not wait behind older holds that
 * run their whole speculative age (10 minutes), which would keep the dead holding counted against the index's bound
 * all that time. Not thread-safe.
 */
final class ExpiryQueue {

    private int[] ids = new int[16];
    private long[] expiries = new long[16];
    private int size;

    void add(int id, long expiry) {
        if (size == ids.length) {
            ids = java.util.Arrays.copyOf(ids, size * 2);
            expiries = java.util.Arrays.copyOf(expiries, size * 2);
        }
        int i = size++;
        while (i > 0) { // sift up
            int parent = (i - 1) >>> 1;
            if (expiries[parent] <= expiry) {
                break;
            }
            ids[i] = ids[parent];
            expiries[i] = expiries[parent];
            i = parent;
        }
        ids[i] = id;
        expiries[i] = expiry;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int firstId() {
        return ids[0];
    }

    long firstExpiry() {
        return expiries[0];
    }

    void removeFirst() {
        size--;
        if (size == 0) {
            return;
        }
        int id = ids[size];
        long expiry = expiries[size];
        int i = 0;
        while (true) { // sift the last entry down from the root
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && expiries[child + 1] < expiries[child]) {
                child++;
            }
            if (expiry <= expiries[child]) {
                break;
            }
            ids[i] = ids[child];
            expiries[i] = expiries[child];
            i = child;
        }
        ids[i] = id;
        expiries[i] = expiry;
    }
}
