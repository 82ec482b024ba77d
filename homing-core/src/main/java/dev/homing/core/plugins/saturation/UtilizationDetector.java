package dev.homing.core.plugins.saturation;

import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.requestcontrol.SaturationDetector;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.Filter;
import java.time.Duration;
import java.util.List;

/**
 * llm-d's {@code utilization-detector} (the default detector), from scraped telemetry. An endpoint's saturation is its
 * most constrained resource, {@code max(q/queueDepthThreshold, kv/kvCacheUtilThreshold)}; the pool's is the mean over
 * endpoints. Metrics older than {@code metricsStalenessThreshold} (200 ms) or never scraped count as fully saturated
 * (1.0), so a scrape outage stalls shedding rather than admitting blind; {@code stalenessPolicy: ignore} leaves such
 * endpoints out of the mean instead (0 when all are stale).
 *
 * <p>As a filter it drops stale endpoints and those at or past {@code queueDepthThreshold · (1 + headroom)} waiting
 * requests or {@code min(1, kvCacheUtilThreshold · (1 + headroom))} KV usage; if that drops everyone, it keeps
 * everyone (the scorers then pick the least bad). Defaults: queue 5, KV 0.8, headroom 0.
 *
 * <p>The queue and KV values are Homing's: scraped, plus the requests and prompt tokens this router sent since the
 * scrape (llm-d's later scrape-lag compensation, done by {@link EndpointState}). Pool saturation counts every request
 * sent since the scrape as queued ({@link EndpointState#queuedOrUnseen}), not only those sent to an endpoint already
 * queueing: it is what flow control and admission gate on, and a pool that read empty queues at its last scrape would
 * otherwise have its whole backlog let through before the next one (measured in {@code suite-overload}: queues of
 * 100-250 a pod at the next scrape). So between scrapes an endpoint takes at most {@code queueDepthThreshold} requests
 * for the pool to read it full: with llm-d's 50 ms scrapes, 100 a second at the default 5.
 */
public final class UtilizationDetector extends NamedPlugin implements SaturationDetector, Filter {

    public static final String TYPE = "utilization-detector";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, UtilizationDetector::create)
            .defaultFor(SaturationDetector.class);

    /** What a stale endpoint contributes to pool saturation. */
    public enum StalenessPolicy { SATURATED, IGNORE }

    private final int queueDepthThreshold;
    private final double kvCacheUtilThreshold;
    private final long stalenessNanos;
    private final StalenessPolicy stalenessPolicy;
    private final double queueLimit;
    private final double kvLimit;

    public UtilizationDetector(String name, int queueDepthThreshold, double kvCacheUtilThreshold,
                               Duration metricsStalenessThreshold, double headroom, StalenessPolicy stalenessPolicy) {
        super(TYPE, name);
        if (queueDepthThreshold <= 0) {
            throw new PluginConfigException("parameter 'queueDepthThreshold' must be > 0, got " + queueDepthThreshold);
        }
        if (!(kvCacheUtilThreshold > 0 && kvCacheUtilThreshold <= 1)) {
            throw new PluginConfigException("parameter 'kvCacheUtilThreshold' must be in (0, 1], got "
                    + kvCacheUtilThreshold);
        }
        if (metricsStalenessThreshold.isNegative() || metricsStalenessThreshold.isZero()) {
            throw new PluginConfigException("parameter 'metricsStalenessThreshold' must be > 0, got "
                    + metricsStalenessThreshold);
        }
        if (!(headroom >= 0) || Double.isInfinite(headroom)) {
            throw new PluginConfigException("parameter 'headroom' must be a finite number >= 0, got " + headroom);
        }
        this.queueDepthThreshold = queueDepthThreshold;
        this.kvCacheUtilThreshold = kvCacheUtilThreshold;
        this.stalenessNanos = metricsStalenessThreshold.toNanos();
        this.stalenessPolicy = stalenessPolicy;
        this.queueLimit = queueDepthThreshold * (1.0 + headroom);
        this.kvLimit = Math.min(1.0, kvCacheUtilThreshold * (1.0 + headroom));
    }

    static UtilizationDetector create(String name, Parameters p, PluginContext ctx) {
        p.string("inFlightLoadProducerName", null); // Homing's endpoints carry this router's in-flight load already
        String policy = p.string("stalenessPolicy", "saturated");
        StalenessPolicy stalenessPolicy = switch (policy) {
            case "saturated" -> StalenessPolicy.SATURATED;
            case "ignore" -> StalenessPolicy.IGNORE;
            default -> throw new PluginConfigException("parameter 'stalenessPolicy' must be 'saturated' or 'ignore', got '"
                    + policy + "'");
        };
        return new UtilizationDetector(name, p.integer("queueDepthThreshold", 5), p.number("kvCacheUtilThreshold", 0.8),
                p.duration("metricsStalenessThreshold", Duration.ofMillis(200)), p.number("headroom", 0.0),
                stalenessPolicy);
    }

    private boolean stale(EndpointState e, long nowNanos) {
        EndpointMetrics m = e.metrics();
        return !m.known() || nowNanos - m.updatedNanos() > stalenessNanos;
    }

    @Override
    public double saturation(List<EndpointState> endpoints, long nowNanos) {
        if (endpoints.isEmpty()) {
            return 1.0;
        }
        double total = 0;
        int fresh = 0;
        for (EndpointState e : endpoints) {
            if (stale(e, nowNanos)) {
                total += stalenessPolicy == StalenessPolicy.SATURATED ? 1.0 : 0.0;
                continue;
            }
            fresh++;
            total += Math.max((double) e.queuedOrUnseen() / queueDepthThreshold,
                    e.kvCacheUsage() / kvCacheUtilThreshold);
        }
        if (stalenessPolicy == StalenessPolicy.IGNORE) {
            return fresh == 0 ? 0.0 : total / fresh;
        }
        return total / endpoints.size();
    }

    @Override
    public boolean saturated(EndpointState endpoint, long nowNanos) {
        return stale(endpoint, nowNanos) || endpoint.waitingQueueSize() >= queueLimit
                || endpoint.kvCacheUsage() >= kvLimit;
    }

    @Override
    public List<EndpointState> filter(Cycle cycle, List<EndpointState> candidates) {
        List<EndpointState> kept = Filter.keep(candidates, e -> !saturated(e, cycle.startNanos()));
        return kept.isEmpty() ? candidates : kept;
    }
}
