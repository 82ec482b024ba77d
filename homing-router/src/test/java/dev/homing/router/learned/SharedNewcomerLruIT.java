package dev.homing.router.learned;

import dev.homing.core.learned.NewcomerLru;
import dev.homing.core.learned.NewcomerLruContract;
import dev.homing.router.fixtures.RedisServerProcess;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;

/**
 * The newcomer order's contract against a real redis-server: on one replica, and across two (every receipt made on A,
 * the order read on B once B has applied them), where B must keep A's order and bound exactly.
 */
class SharedNewcomerLruIT {

    private static final AtomicInteger POOLS = new AtomicInteger();
    private static RedisServerProcess server;
    private static final List<RedisReplicas> opened = new ArrayList<>();

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
        opened.clear();
    }

    private static RedisReplicas replicas() {
        RedisReplicas replicas = new RedisReplicas(server, "newcomers-" + POOLS.incrementAndGet());
        opened.add(replicas);
        return replicas;
    }

    @Nested
    class OneReplica extends NewcomerLruContract {
        @Override
        protected NewcomerLru newLru(int size) {
            return replicas().replica().newcomerLru("newcomers", size);
        }
    }

    @Nested
    class AcrossTwoReplicas extends NewcomerLruContract {
        @Override
        protected NewcomerLru newLru(int size) {
            RedisReplicas replicas = replicas();
            NewcomerLru a = replicas.replica().newcomerLru("newcomers", size);
            NewcomerLru b = replicas.replica().newcomerLru("newcomers", size);
            return new NewcomerLru() {
                @Override
                public void received(String endpoint) {
                    a.received(endpoint);
                }

                @Override
                public List<String> leastRecentFirst() {
                    replicas.settle();
                    return b.leastRecentFirst();
                }
            };
        }
    }
}
