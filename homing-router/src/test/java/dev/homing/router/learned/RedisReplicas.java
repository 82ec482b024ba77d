package dev.homing.router.learned;

import static org.awaitility.Awaitility.await;

import dev.homing.router.fixtures.RedisServerProcess;
import dev.homing.router.shared.SharedRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Replicas' learned state on one real redis-server, each with its own client, as separate router processes have; and
 * the wait until what one wrote has been applied by the others.
 */
final class RedisReplicas implements AutoCloseable {

    private final RedisServerProcess server;
    private final String pool;
    private final List<SharedRedis> clients = new ArrayList<>();
    private final List<RedisLearnedState> replicas = new ArrayList<>();

    RedisReplicas(RedisServerProcess server, String pool) {
        this.server = server;
        this.pool = pool;
    }

    /** A replica of the pool, started, whose pool holds every endpoint. */
    RedisLearnedState replica() {
        return replica(endpoint -> true);
    }

    /** A replica of the pool, started, whose pool holds the endpoints {@code inPool} accepts. */
    RedisLearnedState replica(Predicate<String> inPool) {
        SharedRedis redis = SharedRedis.create(server.url(), pool, Duration.ofSeconds(2), Duration.ofMillis(50));
        redis.start();
        clients.add(redis);
        RedisLearnedState state = new RedisLearnedState(redis, inPool);
        state.start();
        replicas.add(state);
        return state;
    }

    /**
     * Waits until every replica's changes are in Redis and every replica has applied all the others': with replicas
     * made before any change, each applies the sum of the others' writes.
     */
    void settle() {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(2)).until(() -> {
            long total = 0;
            for (RedisLearnedState r : replicas) {
                if (!r.idle()) {
                    return false;
                }
                total += r.written();
            }
            for (RedisLearnedState r : replicas) {
                if (r.applied() != total - r.written()) {
                    return false;
                }
            }
            return true;
        });
    }

    @Override
    public void close() {
        replicas.forEach(RedisLearnedState::close);
        clients.forEach(SharedRedis::close);
    }
}
