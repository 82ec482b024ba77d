package dev.homing.router.precise;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.precise.KvEventFeed;
import dev.homing.core.precise.PreciseIndexFactory;
import dev.homing.core.time.Ticker;
import dev.homing.router.precise.events.KvEventSubscribers;
import dev.homing.router.precise.events.KvEventsObserver;
import dev.homing.router.precise.redis.RedisIndexes;
import dev.homing.router.shared.SharedRedis;
import java.util.List;

/**
 * The router's side of precise prefix routing: where the precise producers' indexes live (this replica's memory, or
 * the Redis the pool's replicas share) and the subscribers that feed them the pods' KV events. The producers are
 * reached only as core's {@link KvEventFeed}s of whichever config runs, never by their classes.
 */
public final class PreciseRouting implements AutoCloseable {

    private final RedisIndexes shared; // null: the indexes live in this replica's memory
    private final PreciseIndexFactory indexes;
    private final KvEventSubscribers subscribers;

    /** @param redis the Redis the pool's replicas share, or null for none */
    public PreciseRouting(EndpointPool pool, SharedRedis redis, KvEventsObserver observer, Ticker ticker) {
        this.shared = redis == null ? null : new RedisIndexes(redis, ticker);
        this.indexes = shared == null ? PreciseIndexFactory.IN_MEMORY : shared.factory();
        this.subscribers = new KvEventSubscribers(pool, observer, ticker);
    }

    /** What the precise producers keep their holdings in: the plugins' {@link PreciseIndexFactory}. */
    public PreciseIndexFactory indexes() {
        return indexes;
    }

    /**
     * Starts the Redis writes, if any, and feeds the running config's producers.
     *
     * @throws IllegalStateException when a centralized endpoint cannot be bound
     */
    public void start(List<KvEventFeed> producers) {
        if (shared != null) {
            shared.start();
        }
        feed(producers);
    }

    /** Feeds exactly these producers from now on (after a config reload, say): see {@link KvEventSubscribers#wire}. */
    public void feed(List<KvEventFeed> producers) {
        subscribers.wire(producers);
    }

    public KvEventSubscribers subscribers() {
        return subscribers;
    }

    @Override
    public void close() {
        subscribers.close();
        if (shared != null) {
            shared.close();
        }
    }
}
