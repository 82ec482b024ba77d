package dev.homing.core.precise;

/**
 * Speculative holds in the order they were made, each with the expiry it had then: a ring of (holding id, expiry)
 * pairs. It checks nothing itself: {@link SpeculativeHolds} keeps an id from being handed out again while an entry
 * names it, and {@link SpeculativeHolds#nextExpired}, when an entry's time comes, checks that the holding is still
 * there, speculative and expired (it may since have been removed, confirmed, or refreshed to a later expiry, which
 * queued another entry). Not thread-safe.
 */
final class ExpiryQueue {

    private int[] ids = new int[16];
    private long[] expiries = new long[16];
    private int head;
    private int size;

    void add(int id, long expiry) {
        if (size == ids.length) {
            int[] newIds = new int[ids.length * 2];
            long[] newExpiries = new long[ids.length * 2];
            for (int i = 0; i < size; i++) {
                newIds[i] = ids[(head + i) & (ids.length - 1)];
                newExpiries[i] = expiries[(head + i) & (ids.length - 1)];
            }
            ids = newIds;
            expiries = newExpiries;
            head = 0;
        }
        int tail = (head + size) & (ids.length - 1);
        ids[tail] = id;
        expiries[tail] = expiry;
        size++;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int firstId() {
        return ids[head];
    }

    long firstExpiry() {
        return expiries[head];
    }

    void removeFirst() {
        head = (head + 1) & (ids.length - 1);
        size--;
    }
}
