package dev.homing.bench.workload;

import dev.homing.bench.result.CacheBounds;

/** {@link BeladyBound} and {@link LruBound} of one workload from one flattening of it. */
public final class PooledBounds {

    private PooledBounds() {
    }

    public static CacheBounds of(Workload w, int blockSize, long capacityBlocks) {
        BlockTrace t = BlockTrace.of(w, blockSize);
        return new CacheBounds(capacityBlocks, BeladyBound.of(t, capacityBlocks), LruBound.of(t, capacityBlocks));
    }
}
