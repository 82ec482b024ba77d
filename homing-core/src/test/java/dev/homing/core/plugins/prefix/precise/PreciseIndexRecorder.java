package dev.homing.core.plugins.prefix.precise;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.precise.IndexStats;
import dev.homing.core.precise.PreciseIndex;
import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.List;

/** An index that notes when lookups begin and when they are finished, around a real one. */
final class PreciseIndexRecorder implements PreciseIndex {

    private final PreciseIndex inner;
    private final List<String> calls;

    PreciseIndexRecorder(PreciseIndex inner, List<String> calls) {
        this.inner = inner;
        this.calls = calls;
    }

    @Override
    public Lookup lookup(long[] keys, long nowNanos) {
        calls.add("lookup");
        return (candidates, size, now) -> {
            calls.add("match");
            return inner.match(keys, candidates, size, now);
        };
    }

    @Override
    public Match match(long[] keys, List<EndpointState> candidates, int snapshotSize, long nowNanos) {
        calls.add("direct match");
        return inner.match(keys, candidates, snapshotSize, nowNanos);
    }

    @Override
    public int blockSize() {
        return inner.blockSize();
    }

    @Override
    public long root(String model, String cacheSalt) {
        return inner.root(model, cacheSalt);
    }

    @Override
    public int apply(String podName, List<KvCacheEvent> events) {
        return inner.apply(podName, events);
    }

    @Override
    public void holdSpeculatively(String podName, long[] keys, long untilNanos) {
        inner.holdSpeculatively(podName, keys, untilNanos);
    }

    @Override
    public void settleSpeculatively(String podName, long[] keys, long untilNanos) {
        inner.settleSpeculatively(podName, keys, untilNanos);
    }

    @Override
    public void clear(String podName) {
        inner.clear(podName);
    }

    @Override
    public void removePod(String podName) {
        inner.removePod(podName);
    }

    @Override
    public long size() {
        return inner.size();
    }

    @Override
    public long size(String podName) {
        return inner.size(podName);
    }

    @Override
    public IndexStats stats() {
        return inner.stats();
    }
}
