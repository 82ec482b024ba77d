package dev.homing.router.metrics;

import dev.homing.core.endpoint.EndpointPool;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * What this replica shares with the pool's other replicas through Redis: whether Redis answers, what fell back to local
 * state, and the other replicas' requests in flight. Registered only when the router has a Redis.
 */
final class SharedStateMetrics {

    private SharedStateMetrics() {
    }

    /**
     * @param redisUp   whether Redis is reachable now
     * @param fallbacks operations that used this replica's local state only because Redis could not be used
     */
    static void register(PrometheusRegistry registry, EndpointPool pool, BooleanSupplier redisUp,
                         LongSupplier fallbacks) {
        GaugeWithCallback.builder().name("homing_redis_up")
                .help("1 when the Redis shared by the router replicas is reachable, 0 while this replica runs on its "
                        + "local state.")
                .callback(cb -> cb.call(redisUp.getAsBoolean() ? 1 : 0)).register(registry);
        CounterWithCallback.builder().name("homing_redis_fallbacks_total")
                .help("Index lookups and writes served by this replica's local state only, because Redis could not "
                        + "be reached or could not keep up.")
                .callback(cb -> cb.call(fallbacks.getAsLong())).register(registry);
        GaugeWithCallback.builder().name("homing_shared_inflight_requests")
                .help("Requests the other router replicas have in flight to an endpoint, as last read from Redis.")
                .labelNames("pod")
                .callback(cb -> pool.snapshot().endpoints().forEach(e -> cb.call(e.load().remoteInFlightRequests(),
                        e.name())))
                .register(registry);
    }
}
