package dev.homing.router.precise.redis;

import dev.homing.core.precise.PreciseIndexFactory;
import dev.homing.core.time.Ticker;
import dev.homing.router.shared.RedisWriter;
import dev.homing.router.shared.SharedRedis;
import java.time.Clock;
import java.time.Duration;

/**
 * Precise indexes kept in the Redis that a pool's router replicas share: the factory the producers make them with, and
 * the one bounded background writer on which their writes that must not wait are queued. Nothing runs before
 * {@link #start()}, so a router that fails to start leaves no thread behind.
 */
public final class RedisIndexes implements AutoCloseable {

    /** How long a pod's engine-hash map outlives its last event. */
    static final Duration ENGINE_MAP_TTL = Duration.ofHours(24);
    static final int BACKGROUND_WRITES = 4096;

    private final RedisWriter writer;
    private final PreciseIndexFactory factory;

    public RedisIndexes(SharedRedis redis, Ticker ticker) {
        this.writer = new RedisWriter(redis, BACKGROUND_WRITES, "homing-redis-writer");
        this.factory = RedisPreciseIndex.factory(redis, writer::submit, ticker, Clock.systemUTC(), ENGINE_MAP_TTL);
    }

    /** Makes the Redis-backed indexes of {@code precise-prefix-cache-producer}s. */
    public PreciseIndexFactory factory() {
        return factory;
    }

    public void start() {
        writer.start();
    }

    @Override
    public void close() {
        writer.close();
    }
}
