package dev.homing.router.learned;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.learned.ApproxIndex;
import dev.homing.core.learned.ApproxIndexContract;
import dev.homing.router.fixtures.RedisServerProcess;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The approximate index's contract across two replicas on one real redis-server: every record and forget is made on
 * replica A, every match read on replica B once B has applied A's writes. B's copy must then answer each scenario
 * as one in-memory index would (bounds, eviction order, forgets by stamp), which fails if a change is lost, applied
 * out of order or mis-decoded on the way. Removing an endpoint is each replica's own pool's doing, so it is made on
 * both.
 */
class ApproxIndexAcrossReplicasIT extends ApproxIndexContract {

    private static final AtomicInteger POOLS = new AtomicInteger();
    private static RedisServerProcess server;
    private final List<RedisReplicas> opened = new ArrayList<>();

    @BeforeAll
    static void startRedis() {
        server = RedisServerProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void closeReplicas() {
        opened.forEach(RedisReplicas::close);
    }

    @Override
    protected ApproxIndex newIndex(long maxEntries) {
        RedisReplicas replicas = new RedisReplicas(server, "approx-across-" + POOLS.incrementAndGet());
        opened.add(replicas);
        ApproxIndex a = replicas.replica().approxIndex("approx", maxEntries);
        ApproxIndex b = replicas.replica().approxIndex("approx", maxEntries);
        return new WrittenOnAReadOnB(a, b, replicas);
    }

    @Override
    protected void settle(ApproxIndex index) {
        ((WrittenOnAReadOnB) index).replicas.settle();
    }

    /** Writes go to A; reads come from B, after B has caught up. */
    private record WrittenOnAReadOnB(ApproxIndex a, ApproxIndex b, RedisReplicas replicas) implements ApproxIndex {

        @Override
        public int record(String endpoint, long[] hashes, long capacity) {
            return a.record(endpoint, hashes, capacity);
        }

        @Override
        public int[] match(long[] hashes, List<EndpointState> candidates, int snapshotSize) {
            replicas.settle();
            return b.match(hashes, candidates, snapshotSize);
        }

        @Override
        public Lookup lookup(long[] hashes) {
            return (candidates, snapshotSize) -> match(hashes, candidates, snapshotSize);
        }

        @Override
        public void forget(String endpoint, long[] hashes, int from, int stamp) {
            a.forget(endpoint, hashes, from, stamp);
        }

        @Override
        public void removeEndpoint(String endpoint) {
            replicas.settle();
            a.removeEndpoint(endpoint);
            b.removeEndpoint(endpoint);
        }

        @Override
        public long size() {
            replicas.settle();
            return b.size();
        }

        @Override
        public long size(String endpoint) {
            replicas.settle();
            return b.size(endpoint);
        }
    }
}
