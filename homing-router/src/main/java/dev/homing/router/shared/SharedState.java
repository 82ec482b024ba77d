package dev.homing.router.shared;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.time.Ticker;
import java.time.Duration;
import java.util.UUID;

/**
 * What a pool's router replicas share through one Redis, whatever their config: the connection, and the requests each
 * has in flight. (The precise indexes that live there belong to precise routing, which uses this connection.) Created
 * with the router, started with it, closed with it; nothing runs before {@link #start()}, so a router that fails to
 * start leaves no thread behind.
 */
public final class SharedState implements AutoCloseable {

    /** Longest wait for Redis before it counts as down: a router must not stall on it. */
    static final Duration TIMEOUT = Duration.ofMillis(250);
    static final Duration PROBE_INTERVAL = Duration.ofMillis(250);
    static final Duration SYNC_INTERVAL = Duration.ofMillis(20);
    static final Duration MIN_GAP = Duration.ofMillis(2);
    static final Duration HEARTBEAT_TTL = Duration.ofSeconds(2);

    private final SharedRedis redis;
    private final SharedLoad load;

    private SharedState(SharedRedis redis, EndpointPool pool, Ticker ticker) {
        this.redis = redis;
        this.load = new SharedLoad(redis, pool, ticker, UUID.randomUUID().toString(), SYNC_INTERVAL, MIN_GAP,
                HEARTBEAT_TTL);
        pool.setLoadListener(load);
    }

    /**
     * @param url redis://host:port of the Redis the replicas share
     * @throws IllegalArgumentException when the URL is not a Redis URL
     */
    public static SharedState create(String url, String poolName, EndpointPool pool, Ticker ticker) {
        return new SharedState(SharedRedis.create(url, poolName, TIMEOUT, PROBE_INTERVAL), pool, ticker);
    }

    public void start() {
        redis.start();
        load.start();
    }

    public SharedRedis redis() {
        return redis;
    }

    public SharedLoad load() {
        return load;
    }

    @Override
    public void close() {
        load.close();
        redis.close();
    }
}
