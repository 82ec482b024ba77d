package dev.homing.router.metrics;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The pool's endpoints as the router sees them: llm-d's {@code inference_pool_*} gauges, this router's load in flight
 * per endpoint, and the scrapes that failed. The gauges are read from the pool when {@code /metrics} is asked for.
 */
public final class PoolMetrics {

    private final Counter scrapeErrors;

    PoolMetrics(PrometheusRegistry registry, String poolName, EndpointPool pool) {
        scrapeErrors = Counter.builder().name("homing_scrape_errors_total")
                .help("Failed scrapes of an endpoint's /metrics.").labelNames("pod").register(registry);
        GaugeWithCallback.builder().name("inference_pool_ready_pods")
                .help("The number of ready pods in the inference server pool.").labelNames("name")
                .callback(cb -> cb.call(ready(pool), poolName)).register(registry);
        GaugeWithCallback.builder().name("inference_pool_average_queue_size")
                .help("The average number of requests pending in the model server queue.").labelNames("name")
                .callback(cb -> cb.call(average(pool, EndpointState::waitingQueueSize), poolName)).register(registry);
        GaugeWithCallback.builder().name("inference_pool_average_kv_cache_utilization")
                .help("The average kv cache utilization for an inference server pool.").labelNames("name")
                .callback(cb -> cb.call(average(pool, EndpointState::kvCacheUsage), poolName)).register(registry);
        GaugeWithCallback.builder().name("inference_pool_per_pod_queue_size")
                .help("The total number of requests pending in the model server queue for each underlying pod.")
                .labelNames("name", "model_server_pod")
                .callback(cb -> pool.snapshot().endpoints().forEach(e -> cb.call(e.waitingQueueSize(), poolName, e.name())))
                .register(registry);
        GaugeWithCallback.builder().name("homing_endpoint_in_flight_requests")
                .help("Requests this router has sent to an endpoint that have not ended.").labelNames("pod")
                .callback(cb -> pool.snapshot().endpoints().forEach(e -> cb.call(e.load().inFlightRequests(), e.name())))
                .register(registry);
        GaugeWithCallback.builder().name("homing_endpoint_in_flight_tokens")
                .help("Estimated prompt plus output tokens of this router's requests in flight to an endpoint.")
                .labelNames("pod")
                .callback(cb -> pool.snapshot().endpoints().forEach(e -> cb.call(e.load().inFlightTokens(), e.name())))
                .register(registry);
        GaugeWithCallback.builder().name("homing_endpoint_pending_prefill_tokens")
                .help("Uncached prompt tokens of this router's requests that an endpoint has not answered yet.")
                .labelNames("pod")
                .callback(cb -> pool.snapshot().endpoints().forEach(e -> cb.call(e.pendingPrefillTokens(), e.name())))
                .register(registry);
    }

    private static double ready(EndpointPool pool) {
        return pool.snapshot().endpoints().stream().filter(e -> e.metrics().known()).count();
    }

    private static double average(EndpointPool pool, ToDoubleFunction<EndpointState> f) {
        List<EndpointState> all = pool.snapshot().endpoints();
        return all.isEmpty() ? 0 : all.stream().mapToDouble(f).average().orElse(0);
    }

    /** Drops a pod's series once it left the pool: pods come and go, their series must not pile up. */
    void forget(String pod) {
        scrapeErrors.remove(pod);
    }

    public void scraped(Endpoint endpoint, boolean ok) {
        if (!ok) {
            scrapeErrors.labelValues(endpoint.name()).inc();
        }
    }
}
