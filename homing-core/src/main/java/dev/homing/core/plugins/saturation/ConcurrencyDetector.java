package dev.homing.core.plugins.saturation;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.requestcontrol.SaturationDetector;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.Filter;
import java.util.List;

/**
 * llm-d's {@code concurrency-detector}, from this router's own in-flight counters (changed at the pick and when a
 * request ends, so never stale, but blind to what the engine really holds). Pool saturation is total in flight over
 * total capacity: requests over {@code endpoints · maxConcurrency} (100) in mode {@code requests}, tokens over
 * {@code endpoints · maxTokenConcurrency} (1,000,000) in mode {@code tokens}, the larger of the two in {@code hybrid}.
 *
 * <p>As a filter it drops endpoints at or past {@code floor(capacity · (1 + headroom))}, in either dimension in hybrid
 * mode. Unlike the utilization detector it may drop everyone, as llm-d's does: the request then fails with 429.
 */
public final class ConcurrencyDetector extends NamedPlugin implements SaturationDetector, Filter {

    public static final String TYPE = "concurrency-detector";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, ConcurrencyDetector::create);

    /** Which in-flight counter is compared with its capacity. */
    public enum Mode { REQUESTS, TOKENS, HYBRID }

    private final Mode mode;
    private final long maxConcurrency;
    private final long maxTokenConcurrency;
    private final long requestLimit;
    private final long tokenLimit;

    public ConcurrencyDetector(String name, Mode mode, long maxConcurrency, long maxTokenConcurrency, double headroom) {
        super(TYPE, name);
        if (maxConcurrency <= 0) {
            throw new PluginConfigException("parameter 'maxConcurrency' must be > 0, got " + maxConcurrency);
        }
        if (maxTokenConcurrency <= 0) {
            throw new PluginConfigException("parameter 'maxTokenConcurrency' must be > 0, got " + maxTokenConcurrency);
        }
        if (!(headroom >= 0) || Double.isInfinite(headroom)) {
            throw new PluginConfigException("parameter 'headroom' must be a finite number >= 0, got " + headroom);
        }
        this.mode = mode;
        this.maxConcurrency = maxConcurrency;
        this.maxTokenConcurrency = maxTokenConcurrency;
        this.requestLimit = (long) (maxConcurrency * (1.0 + headroom));
        this.tokenLimit = (long) (maxTokenConcurrency * (1.0 + headroom));
    }

    static ConcurrencyDetector create(String name, Parameters p, PluginContext ctx) {
        p.string("inFlightLoadProducerName", null); // Homing's endpoints carry this router's in-flight load already
        String mode = p.string("concurrencyMode", "requests");
        Mode m = switch (mode) {
            case "requests" -> Mode.REQUESTS;
            case "tokens" -> Mode.TOKENS;
            case "hybrid" -> Mode.HYBRID;
            default -> throw new PluginConfigException("parameter 'concurrencyMode' must be one of requests, tokens, "
                    + "hybrid, got '" + mode + "'");
        };
        return new ConcurrencyDetector(name, m, p.longValue("maxConcurrency", 100),
                p.longValue("maxTokenConcurrency", 1_000_000), p.number("headroom", 0.0));
    }

    @Override
    public double saturation(List<EndpointState> endpoints, long nowNanos) {
        if (endpoints.isEmpty()) {
            return 1.0;
        }
        long requests = 0;
        long tokens = 0;
        for (EndpointState e : endpoints) {
            requests += e.inFlightRequests();
            tokens += e.inFlightTokens();
        }
        double byRequests = (double) requests / ((double) maxConcurrency * endpoints.size());
        double byTokens = (double) tokens / ((double) maxTokenConcurrency * endpoints.size());
        return switch (mode) {
            case REQUESTS -> byRequests;
            case TOKENS -> byTokens;
            case HYBRID -> Math.max(byRequests, byTokens);
        };
    }

    @Override
    public boolean saturated(EndpointState endpoint, long nowNanos) {
        boolean requests = endpoint.inFlightRequests() >= requestLimit;
        boolean tokens = endpoint.inFlightTokens() >= tokenLimit;
        return switch (mode) {
            case REQUESTS -> requests;
            case TOKENS -> tokens;
            case HYBRID -> requests || tokens;
        };
    }

    @Override
    public List<EndpointState> filter(Cycle cycle, List<EndpointState> candidates) {
        return Filter.keep(candidates, e -> !saturated(e, cycle.startNanos()));
    }
}
