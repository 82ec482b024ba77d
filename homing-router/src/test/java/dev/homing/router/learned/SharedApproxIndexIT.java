package dev.homing.router.learned;

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
 * The approximate index's contract, on one replica whose state is shared through a real redis-server: a replica's
 * copy answers as the in-memory index does, with its writes going to Redis in the background.
 */
class SharedApproxIndexIT extends ApproxIndexContract {

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
        RedisReplicas replicas = new RedisReplicas(server, "approx-contract-" + POOLS.incrementAndGet());
        opened.add(replicas);
        return replicas.replica().approxIndex("approx", maxEntries);
    }
}
