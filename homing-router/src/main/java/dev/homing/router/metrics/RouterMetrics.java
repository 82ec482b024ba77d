package dev.homing.router.metrics;

import dev.homing.core.director.ResponseAffinity;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.flowcontrol.FlowStat;
import dev.homing.core.plugins.prefix.approx.ApproxPrefixCacheProducer;
import dev.homing.core.precise.KvEventFeed;
import dev.homing.router.outlier.PodHealth;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The router's own metrics under llm-d's names ({@code inference_objective_*}, {@code inference_pool_*},
 * {@code inference_extension_*}), so dashboards built for llm-d's endpoint picker keep working, plus
 * {@code homing_*} for what llm-d does not export, such as the KV-event subscribers' {@code homing_kv_events_*}.
 *
 * <p>One registry, written by the admin port's {@code /metrics}; each concern is a class of its own that registers its
 * metrics there: requests and decisions, the pool's endpoints, KV events and config reloads from the start, the
 * running config's plugins once it is loaded, the shared state only when there is a Redis.
 */
public final class RouterMetrics {

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    private final RequestMetrics requests;
    private final PoolMetrics pool;
    private final KvEventMetrics kvEvents;
    private final ReloadMetrics configReloads;
    private final ReloadMetrics endpointsReloads;
    private final String poolName;

    public RouterMetrics(String poolName, EndpointPool pool) {
        this.poolName = poolName;
        this.requests = new RequestMetrics(registry);
        this.pool = new PoolMetrics(registry, poolName, pool);
        this.kvEvents = new KvEventMetrics(registry);
        this.configReloads = new ReloadMetrics(registry, "homing_config_reloads_total",
                "Config file changes seen, by outcome: applied, or refused (the running config stayed).");
        this.endpointsReloads = new ReloadMetrics(registry, "homing_endpoints_reloads_total",
                "Endpoints file changes seen, by outcome: applied, or refused (the running endpoints stayed).");
        // a pod that left takes its series with it (the callback gauges read the pool, so they drop it already)
        pool.onRemoved(e -> {
            this.pool.forget(e.name());
            kvEvents.forget(e.name());
            requests.forget(e.name());
        });
        GaugeWithCallback.builder().name("inference_extension_info")
                .help("General information of the current build.").labelNames("commit", "build_ref")
                .callback(cb -> cb.call(1, "unknown", "homing")).register(registry);
    }

    /** The proxy's requests and the director's decisions. */
    /** The registry, for a part outside this package that counts something of its own (the trace recorder). */
    public PrometheusRegistry registry() {
        return registry;
    }

    public RequestMetrics requests() {
        return requests;
    }

    /** Flow control's metrics, the queue gauges reading {@code flows}; registered once. */
    public FlowMetrics flowControl(Supplier<List<FlowStat>> flows) {
        return new FlowMetrics(registry, poolName, flows);
    }

    /** The pool's endpoints and their scrapes. */
    public PoolMetrics pool() {
        return pool;
    }

    /** The KV-event subscribers' observer. */
    public KvEventMetrics kvEvents() {
        return kvEvents;
    }

    /** Changes of the config file ({@code homing_config_reloads_total}). */
    public ReloadMetrics configReloads() {
        return configReloads;
    }

    /** Changes of the endpoints file ({@code homing_endpoints_reloads_total}). */
    public ReloadMetrics endpointsReloads() {
        return endpointsReloads;
    }

    /** Registers what the running config's plugins report, read anew at each scrape (a reload may replace them). */
    public void policy(Supplier<List<ApproxPrefixCacheProducer>> prefixProducers,
                       Supplier<List<KvEventFeed>> preciseProducers, DoubleSupplier saturation) {
        PolicyGauges.register(registry, prefixProducers, preciseProducers, saturation);
    }

    /** Registers what the director's memory of stored responses reports. */
    public void responseAffinity(ResponseAffinity responses) {
        ResponseAffinityMetrics.register(registry, responses);
    }

    /** Which endpoints are out for failing or stale, how often each was ejected and readmitted, its probes. */
    public void podHealth(EndpointPool pool, PodHealth health) {
        PodHealthMetrics.register(registry, pool, health);
    }

    /** Registers the metrics of what this replica shares with the pool's other replicas through Redis. */
    public void sharedState(EndpointPool pool, BooleanSupplier redisUp, LongSupplier fallbacks) {
        SharedStateMetrics.register(registry, pool, redisUp, fallbacks);
    }

    public String contentType() {
        return writer.getContentType();
    }

    public void write(OutputStream out) throws IOException {
        writer.write(out, registry.scrape());
    }
}
