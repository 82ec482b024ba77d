package dev.homing.bench.policy;

import dev.homing.core.config.ConfigException;
import dev.homing.core.config.ConfigParser;
import dev.homing.core.config.ConfigResolver;
import dev.homing.core.config.ResolvedConfig;
import dev.homing.core.director.Director;
import dev.homing.core.director.Dispatch;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointLoad;
import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.SelfReporting;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.flowcontrol.FlowControlSettings;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.core.framework.requestcontrol.SaturationDetector;
import dev.homing.core.time.Ticker;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.learned.LearnedState;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.core.precise.KvEventFeed;
import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.SplittableRandom;

/**
 * Homing's real scheduler running an {@code EndpointPickerConfig}: the same {@link Director}, plugins and endpoint
 * pool as the router, on the cluster's virtual clock. Scrapes land in the pool as the router's scraper puts them
 * (the scrape's mark taken at the scrape's instant), KV events go to every precise producer's index, and each
 * request's {@link Dispatch} is closed when the request ends, releasing the load it credited.
 */
final class DirectorPolicy implements Policy {

    private final String name;
    private final EndpointPool pool;
    private final Director director;
    private final WorkloadTokens tokens = new WorkloadTokens();
    private final List<KvEventFeed> precise;
    private final List<String> pods;
    private final List<SelfReporting> reporting;
    private final Map<String, Integer> podIndex = new HashMap<>();
    private final FlowControlSettings flowControl;
    private final SaturationDetector detector;
    private final Ticker ticker;

    /**
     * @param creditUnreflected Homing's accounting of load sent since the last scrape; off reproduces llm-d
     */
    DirectorPolicy(String name, String configText, String source, boolean creditUnreflected, PolicyContext ctx) {
        this(name, configText, source, creditUnreflected, ctx, LearnedState.IN_MEMORY);
    }

    /** @param learned where the state its plugins learn from picks lives (shared, for replicas) */
    DirectorPolicy(String name, String configText, String source, boolean creditUnreflected, PolicyContext ctx,
                   LearnedState learned) {
        this.name = name;
        this.pods = ctx.pods();
        this.pool = new EndpointPool(creditUnreflected);
        List<Endpoint> endpoints = new ArrayList<>();
        for (int i = 0; i < pods.size(); i++) {
            endpoints.add(new Endpoint(pods.get(i), "10.0." + (i / 250) + "." + (i % 250 + 1), 8000));
            podIndex.put(pods.get(i), i);
        }
        pool.setEndpoints(endpoints);
        PluginContext plugins = new PluginContext(ctx.ticker(), new SplittableRandom(ctx.seedFor(name)), pool)
                .withTokens(tokens).withLearnedState(learned);
        ResolvedConfig resolved;
        try {
            resolved = new ConfigResolver(BuiltIns.registry()).resolve(ConfigParser.parse(configText, source),
                    plugins);
        } catch (ConfigException e) {
            throw new IllegalArgumentException("policy " + name + ": " + e.getMessage(), e);
        }
        this.precise = resolved.pluginsOf(KvEventFeed.class);
        this.reporting = resolved.pluginsOf(SelfReporting.class);
        this.director = new Director(pool, resolved.policy(), ctx.ticker());
        this.flowControl = resolved.flowControl();
        this.detector = resolved.policy().saturationDetector();
        this.ticker = ctx.ticker();
    }

    @Override
    public FlowControlSettings flowControl() {
        return flowControl;
    }

    /** As the router's {@code FlowGate} reads it: the config's detector over the pool (every pod is routable here). */
    @Override
    public double saturation() {
        return detector == null ? 0.0 : detector.saturation(pool.snapshot().endpoints(), ticker.nanos());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Map<String, Map<String, Double>> pluginReports() {
        Map<String, Map<String, Double>> out = new TreeMap<>();
        for (SelfReporting r : reporting) {
            out.put(r.name(), r.report());
        }
        return out;
    }

    @Override
    public boolean readsBodies() {
        return true;
    }

    @Override
    public boolean readsMetrics() {
        return true;
    }

    @Override
    public boolean consumesKvEvents() {
        return !precise.isEmpty();
    }

    @Override
    public Placement place(PolicyRequest request) throws PlacementException {
        tokens.offer(request.id(), request.tokens());
        Dispatch dispatch;
        try {
            Map<String, String> headers = request.flow() == null ? Map.of()
                    : Map.of(InferenceRequest.FAIRNESS_HEADER, request.flow());
            dispatch = director.dispatch(new InferenceRequest(request.id(), request.fields(), headers)
                    .withPriority(request.priority()));
        } catch (SchedulingException e) {
            throw new PlacementException(429, e.getMessage(), e);
        } finally {
            tokens.clear();
        }
        return new Held(podIndex.get(dispatch.target().name()), dispatch);
    }

    @Override
    public void scraped(int pod, EndpointMetrics metrics) {
        String podName = pods.get(pod);
        EndpointLoad load = pool.load(podName);
        pool.updateMetrics(podName, metrics, load.scrapeStarted());
    }

    @Override
    public void kvEvents(int pod, List<KvCacheEvent> events) {
        for (KvEventFeed p : precise) {
            p.index().apply(pods.get(pod), events);
        }
    }

    EndpointPool pool() {
        return pool;
    }

    /** The dispatch stays open while the request runs; closing it releases the lease once. */
    private record Held(int pod, Dispatch dispatch) implements Placement {
        @Override
        public void firstToken(long nanos) {
            dispatch.firstToken();
        }

        @Override
        public void finished(long nanos) {
            dispatch.complete(Outcome.of(Outcome.Cause.NATURAL, 200));
            dispatch.close();
        }

        @Override
        public void finished(long nanos, long promptTokens, long completionTokens, long cachedTokens) {
            dispatch.complete(new Outcome(Outcome.Cause.NATURAL, 200, promptTokens, completionTokens, cachedTokens));
            dispatch.close();
        }
    }
}
