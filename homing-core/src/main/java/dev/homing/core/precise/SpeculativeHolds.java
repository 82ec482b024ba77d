package dev.homing.core.precise;

import static dev.homing.core.precise.Holdings.NONE;
import static dev.homing.core.precise.Holdings.SPECULATIVE;

import dev.homing.core.collect.CompactLongLongMap;

/**
 * When the speculative holdings of an {@link InMemoryPreciseIndex} expire: each one's expiry beside the holdings (few
 * are speculative, so a map rather than a column), and the holds in the order they were made ({@link ExpiryQueue}),
 * with how many queue entries name each holding. A holding removed while entries still name it keeps its id until the
 * last of them is gone, so that an entry never finds another holding under that id. Not thread-safe.
 */
final class SpeculativeHolds {

    /** Speculative holding id to the nanos it holds until; a lookup reads it directly, one load fewer per holding. */
    final CompactLongLongMap expiries = new CompactLongLongMap();
    private final ExpiryQueue queue = new ExpiryQueue();
    private final CompactLongLongMap queued = new CompactLongLongMap(); // holding id -> its entries in queue
    private final Holdings holdings;

    SpeculativeHolds(Holdings holdings) {
        this.holdings = holdings;
    }

    /** A new speculative holding. */
    void start(int h, long untilNanos) {
        expiries.put(h, untilNanos);
    }

    /** A speculative holding held again: it lasts until the later of its expiries. */
    void extend(int h, long untilNanos) {
        expiries.put(h, Math.max(expiries.get(h, untilNanos), untilNanos));
    }

    /** A speculative holding cut short: it lasts until the earlier of its expiries. */
    void shorten(int h, long untilNanos) {
        expiries.put(h, Math.min(expiries.get(h, untilNanos), untilNanos));
    }

    /** The holding is confirmed or gone: it no longer expires. */
    void end(int h) {
        expiries.remove(h);
    }

    /** Queues the speculative holding {@code h}'s expiry as it stands (one entry per hold, refreshed or not). */
    void queue(int h, long untilNanos) {
        queue.add(h, expiries.get(h, untilNanos));
        queued.put(h, queued.get(h, 0) + 1);
    }

    /** Whether queue entries name the holding, so that its id must not be handed out yet. */
    boolean named(int h) {
        return !queued.isEmpty() && queued.containsKey(h);
    }

    /**
     * Takes the queue's entries that are due by {@code nowNanos} up to the next holding that expires: speculative
     * still and not refreshed past now (it may have been removed, confirmed or refreshed since the entry was queued).
     * Frees the ids of removed holdings no entry names any more.
     *
     * @return the holding to remove, or {@link Holdings#NONE} when no more are due
     */
    int nextExpired(long nowNanos) {
        while (!queue.isEmpty() && queue.firstExpiry() <= nowNanos) {
            int h = queue.firstId();
            queue.removeFirst();
            long left = queued.get(h, 1) - 1;
            if (left == 0) {
                queued.remove(h);
            } else {
                queued.put(h, left);
            }
            if (!holdings.live(h)) {
                if (left == 0) {
                    holdings.reuse(h); // removed since; nothing names it any more
                }
            } else if ((holdings.podTier(h) & SPECULATIVE) != 0 && expiries.get(h, Long.MAX_VALUE) <= nowNanos) {
                return h; // not confirmed or refreshed since
            }
        }
        return NONE;
    }
}
