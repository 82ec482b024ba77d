package dev.homing.core.precise;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The counts behind an index's {@link IndexStats}, kept for tests and diagnostics (no metric reads them: a host
 * counts unresolved events from what {@link PreciseIndex#apply} returns). Counted under the index's lock; atomics so
 * that a reader never waits on that lock.
 */
final class IndexCounters {

    private final AtomicLong storedBlocks = new AtomicLong();
    private final AtomicLong removedBlocks = new AtomicLong();
    private final AtomicLong unresolved = new AtomicLong();
    private final AtomicLong clears = new AtomicLong();

    void stored(int blocks) {
        storedBlocks.addAndGet(blocks);
    }

    void removed() {
        removedBlocks.incrementAndGet();
    }

    void unresolved() {
        unresolved.incrementAndGet();
    }

    void cleared() {
        clears.incrementAndGet();
    }

    IndexStats stats() {
        return new IndexStats(storedBlocks.get(), removedBlocks.get(), unresolved.get(), clears.get());
    }
}
