package dev.homing.core.learned;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What every {@link NewcomerLru} does: the in-memory one and the router's Redis-backed one run these scenarios. */
public abstract class NewcomerLruContract {

    /** A fresh, empty order bounded at {@code size}; each call a separate one. */
    protected abstract NewcomerLru newLru(int size);

    /** Waits, where the order is written in the background, until what it received so far can be read by others. */
    protected void settle(NewcomerLru lru) {
    }

    @Test
    void leastRecentFirstAndAReceiptRefreshes() {
        NewcomerLru lru = newLru(10);
        assertThat(lru.leastRecentFirst()).isEmpty();
        lru.received("pod-0");
        lru.received("pod-1");
        lru.received("pod-2");
        lru.received("pod-0");
        settle(lru);
        assertThat(lru.leastRecentFirst()).containsExactly("pod-1", "pod-2", "pod-0");
    }

    @Test
    void theLeastRecentGoesBeyondTheBound() {
        NewcomerLru lru = newLru(2);
        lru.received("pod-0");
        lru.received("pod-1");
        lru.received("pod-2");
        settle(lru);
        assertThat(lru.leastRecentFirst()).containsExactly("pod-1", "pod-2");
    }

    @Test
    void aLookupBegunBeforeAReceiptSeesItWhenFinished() {
        NewcomerLru lru = newLru(10);
        lru.received("pod-0");
        lru.received("pod-1");
        settle(lru);
        NewcomerLru.Lookup lookup = lru.lookup();
        lru.received("pod-0"); // decided while the lookup was on its way
        lru.received("pod-2");
        assertThat(lookup.leastRecentFirst()).containsExactly("pod-1", "pod-0", "pod-2");
    }
}
