package dev.homing.core.precise;

import dev.homing.core.collect.CompactLongLongMap;

/**
 * A pod as an {@link InMemoryPreciseIndex} knows it: its id (its bit in a key's summary, its part of a holding's
 * {@link Holdings#podTier}), what its engine's block hashes stand for, and how many holdings it has.
 */
final class Pod {

    final int id;
    /** Engine block hash to router key, so that the pod's next events chain and its removals resolve. */
    final CompactLongLongMap engineToKey = new CompactLongLongMap();
    /** Its holdings, kept by {@link BoundedHoldings}. */
    long count;

    Pod(int id) {
        this.id = id;
    }
}
