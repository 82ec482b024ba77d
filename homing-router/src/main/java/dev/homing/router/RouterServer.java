package dev.homing.router;

import dev.homing.core.config.ConfigException;
import dev.homing.core.config.ResolvedConfig;
import dev.homing.core.director.Director;
import dev.homing.core.director.ResponseAffinity;
import dev.homing.core.director.RoutingPolicy;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.request.TokenSource;
import dev.homing.core.framework.request.UsesTokens;
import dev.homing.core.framework.requestcontrol.SaturationDetector;
import dev.homing.core.learned.LearnedState;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.core.plugins.datalayer.CoreMetricsExtractor;
import dev.homing.core.objective.Objectives;
import dev.homing.core.plugins.prefix.approx.ApproxPrefixCacheProducer;
import dev.homing.core.precise.KvEventFeed;
import dev.homing.core.time.Ticker;
import dev.homing.router.admin.AdminHandlers;
import dev.homing.router.auth.Access;
import dev.homing.router.auth.BearerTokens;
import dev.homing.router.auth.PodTokens;
import dev.homing.router.auth.ReloadingFile;
import dev.homing.router.config.ConfigWatch;
import dev.homing.router.config.ReloadOutcome;
import dev.homing.router.config.PolicySource;
import dev.homing.router.discovery.Discovery;
import dev.homing.router.discovery.EndpointsFile;
import dev.homing.router.discovery.FileDiscovery;
import dev.homing.router.discovery.KubernetesApi;
import dev.homing.router.discovery.KubernetesDiscovery;
import dev.homing.router.discovery.KubernetesObjectives;
import dev.homing.router.discovery.StaticDiscovery;
import dev.homing.router.election.LeaderElection;
import dev.homing.router.explain.DecisionJson;
import dev.homing.router.explain.ScheduleHandler;
import dev.homing.router.extproc.EndpointPicker;
import dev.homing.router.extproc.GrpcPort;
import dev.homing.router.extproc.PickerHealth;
import dev.homing.router.http.HttpPort;
import dev.homing.router.http.RequestIntake;
import dev.homing.router.objective.ObjectiveResources;
import dev.homing.router.metrics.RouterMetrics;
import dev.homing.router.outlier.HealthChecks;
import dev.homing.router.flow.FlowGate;
import dev.homing.router.outlier.PodHealth;
import dev.homing.router.precise.PreciseRouting;
import dev.homing.router.precise.events.KvEventSubscribers;
import dev.homing.router.proxy.ApiPort;
import dev.homing.router.record.TraceRecorder;
import dev.homing.router.scrape.EndpointCatalog;
import dev.homing.router.scrape.MetricsScraper;
import dev.homing.router.learned.RedisLearnedState;
import dev.homing.router.shared.SharedState;
import dev.homing.router.tokens.PodTokenSource;
import dev.homing.router.upstream.UpstreamClient;
import dev.homing.router.upstream.UpstreamConnectException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A running router: the API port (OpenAI-compatible proxy), the ext_proc port (the same decisions for a gateway),
 * the admin and health ports, the scraper, and the director between them. The composition root of the router module: its constructor lists the parts in the order they start.
 */
public final class RouterServer implements AutoCloseable {

    private static final CoreMetricsExtractor BUILT_IN_EXTRACTOR = CoreMetricsExtractor.builtIn();
    /** One scrape in flight per pod at a time: one kept connection each, a second for a models fetch's overlap. */
    private static final int SCRAPE_CONNECTIONS_PER_POD = 2;
    /** The most of a {@code /health} answer's body read. */
    private static final int HEALTH_BODY_READ = 4096;

    private final RouterOptions options;

    private final Lifecycle parts = new Lifecycle();
    private final EndpointPool pool;
    private final EndpointCatalog catalog = new EndpointCatalog();
    private final RouterMetrics metrics;
    private final PreciseRouting precise;
    private final PolicySource policy;
    private final Director director;
    private final Discovery discovery;
    private final LeaderElection election;
    private final HttpPort admin;
    private final ApiPort api;
    private final GrpcPort extProc;
    private final GrpcPort health;
    private final PickerHealth pickerHealth;
    private final PodHealth podHealth;
    private volatile FlowGate flow;
    /** The objectives and model rewrites requests are read with now: the file's, else the cluster's, else none. */
    private final Supplier<Objectives> objectives;
    /** The policy running asks for tokens, so a decision may block: see {@link #asksForTokens}. */
    private volatile boolean tokensAsked;
    /** Every part runs: readiness waits for it as well as for the pool (under this). */
    private boolean started;

    private RouterServer(RouterOptions options) throws ConfigException {
        this.options = options;
        this.pickerHealth = new PickerHealth(options.election() != null);
        Ticker ticker = SystemTicker.INSTANCE;
        this.pool = new EndpointPool(options.creditUnreflected());
        this.metrics = new RouterMetrics(options.poolName(), pool);
        try {
            // shared state: with a Redis, the pool's replicas share their requests in flight (and precise indexes)
            SharedState shared = options.redisUrl() == null ? null : parts.add(
                    SharedState.create(options.redisUrl(), options.poolName(), pool, ticker), SharedState::start);
            if (shared != null) {
                metrics.sharedState(pool, shared.redis()::up, shared.redis()::fallbacks);
            }
            // learned: with a Redis, the approximate prefix index and the newcomer order are shared too, so that
            // replicas of the default (approximate) config agree on where a prompt lives
            LearnedState learned = shared == null ? LearnedState.IN_MEMORY : parts.add(
                    new RedisLearnedState(shared.redis(), endpoint -> pool.load(endpoint) != null),
                    RedisLearnedState::start);
            // tokens: precise prefix matching needs the tokens the pods will see; by default, ask the pods themselves
            TokenSource tokens = options.tokenSource() != null ? options.tokenSource()
                    : parts.add(PodTokenSource.create(pool, catalog, options.connectTimeout()));
            // precise: where the precise indexes live, and the subscribers feeding them the pods' KV events
            this.precise = parts.add(new PreciseRouting(pool, shared == null ? null : shared.redis(),
                    metrics.kvEvents(), ticker), p -> p.start(preciseProducers()));
            // director: the routing policy (a built-in config, or a file watched for changes) and who applies it
            PluginContext plugins = new PluginContext(ticker, new SplittableRandom(options.seed()), pool)
                    .withTokens(tokens).withPreciseIndexes(precise.indexes()).withLearnedState(learned);
            this.policy = PolicySource.load(options.configFile(), options.builtInConfig(), BuiltIns.registry(),
                    plugins);
            // record: a trace of what is routed, written off the request path by a response hook on every policy
            TraceRecorder recorder = options.record() == null ? null
                    : parts.add(new TraceRecorder(options.record(), metrics.registry()), TraceRecorder::start);
            UnaryOperator<RoutingPolicy> installing = recorder == null ? UnaryOperator.identity() : recorder::appendTo;
            policy.installWith(installing);
            tokensAsked = asksForTokens(policy.current());
            // responses: which pod answered each recent Responses API response, for follow-ups naming it
            this.director = new Director(pool, installing.apply(policy.current().policy()), ticker,
                    new ResponseAffinity(options.responseAffinityCapacity()));
            metrics.policy(this::prefixProducers, this::preciseProducers, this::poolSaturation);
            metrics.responseAffinity(director.responses());
            // discovery: the endpoints given, an endpoints file watched for changes, or Kubernetes' pods
            KubernetesApi kubernetes = options.kubernetes() == null ? null
                    : parts.add(KubernetesApi.connect(options.kubeconfig()));
            this.discovery = parts.add(discovery(options, kubernetes), Discovery::start);
            // scraper: each endpoint's metrics and models
            // the scrape timeout bounds each step: the connection, the response head, each wait for more of the body
            UpstreamClient scrapeClient = parts.add(new UpstreamClient(options.scrapeTimeout(), options.scrapeTimeout(),
                    options.scrapeTimeout(), SCRAPE_CONNECTIONS_PER_POD, UpstreamClient.DEFAULT_IDLE_TIMEOUT));
            pool.onRemoved(e -> scrapeClient.forget(e.address()));
            parts.add(new MetricsScraper(pool, catalog, scrapeClient, options.scrapeInterval(),
                    options.modelsInterval(), ticker, (e, ok, nanos) -> metrics.pool().scraped(e, ok),
                    this::metricsExtractor), MetricsScraper::start);
            // intake and the data plane: from a client's request to a pod and back
            // objectives: priorities and model rewrites, from a file followed as it changes, else the cluster's
            Supplier<Objectives> objectives = this.objectives = objectives(options, parts, kubernetes);
            RequestIntake intake = new RequestIntake(catalog, options.maxBodyBytes(), objectives,
                    new SplittableRandom(options.seed() ^ 0x5DEECE66DL), metrics.requests()::rewriteDecision);
            // admin, then the API: a router takes requests only once all else runs
            // access: who may use the API and the admin port, what the pods are told; its files followed
            Access access = access(options);
            if (access.apiKeys() != null || access.podTokens() != null) {
                parts.add(new ConfigWatch("homing-access-watch", options.configPollInterval(), access::poll),
                        ConfigWatch::start);
            }
            AdminHandlers adminHandlers = new AdminHandlers(pool, catalog, metrics, ticker,
                    new ScheduleHandler(director, catalog, intake), pickerHealth::notReady, access);
            this.admin = parts.add(new HttpPort("admin", options.adminHost(), options.adminPort(),
                    adminHandlers::register), HttpPort::start);
            // pod health: endpoints whose requests keep failing, whose /health probes fail or whose metrics are
            // stale are left out for a while
            PodHealth health = this.podHealth = parts.add(new PodHealth(pool, ticker::nanos, staleAfter(options),
                    healthProbe(options, parts, pool), options.healthCheckInterval()), PodHealth::start);
            metrics.podHealth(pool, health);
            // flow control: requests wait in priority bands while the pool is saturated (feature gate flowControl)
            FlowGate flow = this.flow = parts.add(new FlowGate(pool, health::routable, director::policy, ticker,
                    metrics.flowControl(() -> this.flow == null ? List.of() : this.flow.flows())), FlowGate::start);
            flow.configure(policy.current().flowControl());
            this.api = !options.proxy() ? null : parts.add(new ApiPort(new ApiPort.Settings(options.host(),
                    options.port(), options.connectTimeout(), options.responseTimeout(), options.idleTimeout(),
                    options.maxAttempts(), options.retryBudget(), Runtime.getRuntime().availableProcessors(),
                    options.requestReadTimeout()),
                    director, catalog, intake, health,
                    metrics.requests(), ticker, DecisionJson::compact, () -> shared != null || tokensAsked, access,
                    flow),
                    ApiPort::start);
            if (api != null) {
                pool.onRemoved(api::forget);
            }
            // ext_proc: the same director, asked by a gateway (Envoy and those built on it) instead of a client
            EndpointPicker picker = options.extProcPort() < 0 ? null : parts.add(new EndpointPicker(director, intake,
                    catalog, health, metrics.requests(), ticker, options.maxBodyBytes(), flow));
            this.extProc = picker == null ? null : parts.add(new GrpcPort("ext_proc", options.host(),
                    options.extProcPort(), extProcSecurity(options), options.maxBodyBytes() + (1 << 20), options.drainTimeout(),
                    picker, pickerHealth), GrpcPort::start); // Envoy health-checks the picker on this port too
            // health, plaintext as Kubernetes probes it; ready once every part runs (see start)
            this.health = options.healthPort() < 0 ? null : parts.add(new GrpcPort("gRPC health", options.host(),
                    options.healthPort(), new GrpcPort.Security.Plaintext(), 1 << 16, pickerHealth), GrpcPort::start);
            if (options.configFile() != null) {
                parts.add(new ConfigWatch(options.configPollInterval(), this::reload), ConfigWatch::start);
            }
            // leader election last: closed first, a leader gives its lease up while all else still runs
            this.election = options.election() == null ? null : parts.add(new LeaderElection(kubernetes,
                    options.kubernetes().namespace(), options.kubernetes().leaseName(),
                    LeaderElection.identity(System.getenv()), options.election(), pickerHealth::setLeader),
                    LeaderElection::start);
        } catch (Throwable e) {
            // Nothing is left running when the router cannot be built, whatever stopped it (an Error too); a part
            // that fails to close is suppressed in e, so e stays the error reported.
            parts.closeAfter(e);
            throw e;
        }
    }

    /**
     * The objectives file's resources, followed as it changes; else, following an InferencePool, the cluster's
     * InferenceObjectives and InferenceModelRewrites for it, watched; else none. A file replaces the cluster's: they
     * are not watched then (nor need the RBAC to be).
     */
    private static Supplier<Objectives> objectives(RouterOptions o, Lifecycle parts, KubernetesApi kubernetes)
            throws ConfigException {
        if (o.objectivesFile() == null) {
            if (kubernetes == null || !o.kubernetes().followsInferencePool()) {
                return () -> Objectives.NONE;
            }
            AtomicReference<Objectives> cluster = new AtomicReference<>(Objectives.NONE);
            parts.add(new KubernetesObjectives(kubernetes, o.kubernetes(), KubernetesDiscovery.DEFAULT_RESYNC,
                    cluster::set), KubernetesObjectives::start);
            return cluster::get;
        }
        ReloadingFile<Objectives> file = ReloadingFile.load(o.objectivesFile(), "objectives",
                ObjectiveResources::parseFile);
        parts.add(new ConfigWatch("homing-objectives-watch", o.configPollInterval(), file::poll), ConfigWatch::start);
        return file::current;
    }

    /**
     * When metrics are stale: the limit given, but never before two scrapes in a row were missed. A scrape interval
     * near or past the limit (a slow {@code --scrape-interval}) would otherwise take each pod out between its scrapes,
     * one after another as their ages pass the limit, and routing would follow the scrape's phase.
     */
    static Duration staleAfter(RouterOptions o) {
        if (o.metricsStaleness().isZero()) {
            return Duration.ZERO;
        }
        Duration twoScrapes = o.scrapeInterval().multipliedBy(2).plus(o.scrapeTimeout());
        return o.metricsStaleness().compareTo(twoScrapes) >= 0 ? o.metricsStaleness() : twoScrapes;
    }

    /**
     * {@code GET /health} answered 200 within a second (vLLM answers at once while its engine runs), on a client of
     * its own so that probes never wait behind scrapes; null when active checks are off.
     */
    private static HealthChecks.Probe healthProbe(RouterOptions o, Lifecycle parts, EndpointPool pool) {
        if (o.healthCheckInterval().isZero()) {
            return null;
        }
        Duration timeout = Duration.ofSeconds(1);
        UpstreamClient client = parts.add(new UpstreamClient(o.connectTimeout().compareTo(timeout) < 0
                ? o.connectTimeout() : timeout, timeout, timeout, 1, UpstreamClient.DEFAULT_IDLE_TIMEOUT));
        pool.onRemoved(e -> client.forget(e.address())); // a pod that left keeps no probe connection open
        return endpoint -> {
            try (var res = client.send(endpoint.address(), "GET", "/health", Map.of(), null)) {
                // vLLM's answer is empty; a pod that says more is read no further (closing drops the connection)
                res.body().readNBytes(HEALTH_BODY_READ);
                return res.status() == 200 ? HealthChecks.Verdict.HEALTHY : HealthChecks.Verdict.UNHEALTHY;
            } catch (UpstreamConnectException e) {
                return HealthChecks.Verdict.UNREACHABLE;
            }
        };
    }

    private static Access access(RouterOptions o) throws ConfigException {
        return new Access(o.apiKeysFile() == null ? null : ReloadingFile.load(o.apiKeysFile(), "API keys",
                BearerTokens::parse), o.adminToken() == null ? null : BearerTokens.of(o.adminToken()),
                o.explainForAll(), o.stripAuthorization(), o.podTokensFile() == null ? null
                : ReloadingFile.load(o.podTokensFile(), "pod tokens", PodTokens::parse));
    }

    private static GrpcPort.Security extProcSecurity(RouterOptions o) {
        if (!o.secureServing()) {
            return new GrpcPort.Security.Plaintext();
        }
        return o.certPath() != null ? new GrpcPort.Security.Files(o.certPath())
                : new GrpcPort.Security.SelfSigned(List.of(o.host()));
    }

    private Discovery discovery(RouterOptions o, KubernetesApi kubernetes) throws ConfigException {
        if (kubernetes != null) {
            return new KubernetesDiscovery(kubernetes, o.kubernetes(), pool, KubernetesDiscovery.DEFAULT_RESYNC,
                    this::syncChanged);
        }
        if (o.endpointsFile() != null) {
            return new FileDiscovery(pool, EndpointsFile.load(o.endpointsFile()), o.configPollInterval(),
                    metrics.endpointsReloads()::reloaded, this::syncChanged);
        }
        return new StaticDiscovery(pool, o.endpoints(), this::syncChanged);
    }

    /** Synced is ready once every part runs, and as long as the discovery says so. */
    private synchronized void syncChanged() {
        pickerHealth.setSynced(started && discovery != null && discovery.synced());
    }

    /**
     * Starts the router. A discovered pool may not have synced when this returns: until it has, the router is not
     * ready and routes nothing (its pool is empty).
     *
     * @throws ConfigException when the config file or the endpoints file cannot be used; nothing is left running
     */
    public static RouterServer start(RouterOptions options) throws ConfigException {
        RouterServer s = new RouterServer(options);
        s.parts.start(); // a part that cannot start closes them all
        synchronized (s) {
            s.started = true;
            s.syncChanged();
        }
        return s;
    }

    private void reload() {
        try {
            ReloadOutcome outcome = policy.reload(director);
            metrics.configReloads().reloaded(outcome);
            if (outcome == ReloadOutcome.APPLIED) {
                flow.configure(policy.current().flowControl());
                tokensAsked = asksForTokens(policy.current());
                precise.feed(preciseProducers());
            }
        } catch (RuntimeException e) {
            System.getLogger(RouterServer.class.getName()).log(System.Logger.Level.WARNING, "config reload failed", e);
        }
    }

    /** The configuration running now. */
    public ResolvedConfig config() {
        return policy.current();
    }

    private double poolSaturation() {
        ResolvedConfig c = policy.current();
        if (c.saturationDetector() == null || !(c.plugins().get(c.saturationDetector()) instanceof SaturationDetector d)) {
            return Double.NaN;
        }
        return d.saturation(pool.snapshot().endpoints(), SystemTicker.INSTANCE.nanos());
    }

    /** The running config's metrics extractor, or llm-d's built-in one when it has none. */
    private CoreMetricsExtractor metricsExtractor() {
        List<CoreMetricsExtractor> configured = policy.current().pluginsOf(CoreMetricsExtractor.class);
        return configured.isEmpty() ? BUILT_IN_EXTRACTOR : configured.getFirst();
    }

    /** The running config's precise producers: each is fed KV events. */
    private List<KvEventFeed> preciseProducers() {
        return policy.current().pluginsOf(KvEventFeed.class);
    }

    /**
     * Whether the policy running asks for a request's tokens (precise prefix matching, a token producer): a decision
     * may then wait on a pod's tokenizer, so decisions run off the event loops. Judged as a policy is installed.
     */
    private static boolean asksForTokens(ResolvedConfig config) {
        return !config.pluginsOf(UsesTokens.class).isEmpty();
    }

    private List<ApproxPrefixCacheProducer> prefixProducers() {
        return director.policy().producers().stream()
                .filter(ApproxPrefixCacheProducer.class::isInstance)
                .map(ApproxPrefixCacheProducer.class::cast)
                .toList();
    }

    /** The API port, or -1 when the HTTP proxy is off. */
    public int port() {
        return api == null ? -1 : api.port();
    }

    /** The ext_proc port, or -1 when it is off. */
    public int extProcPort() {
        return extProc == null ? -1 : extProc.port();
    }

    /** The gRPC health port, or -1 when it is off. */
    public int healthPort() {
        return health == null ? -1 : health.port();
    }

    /** Which endpoints may be sent a request now, and why not. */
    public PodHealth podHealth() {
        return podHealth;
    }

    /** What the gRPC health service answers. */
    public PickerHealth health() {
        return pickerHealth;
    }

    /** Where the endpoints come from. */
    /** The objectives and model rewrites requests are read with now. */
    public Objectives objectives() {
        return objectives.get();
    }

    public Discovery discovery() {
        return discovery;
    }

    /** The replicas' leader election, or null when it is off. */
    public LeaderElection election() {
        return election;
    }

    public int adminPort() {
        return admin.port();
    }

    public EndpointPool pool() {
        return pool;
    }

    public Director director() {
        return director;
    }

    public EndpointCatalog catalog() {
        return catalog;
    }

    public RouterOptions options() {
        return options;
    }

    /** The subscribers feeding the precise producers' indexes with the pods' KV events. */
    public KvEventSubscribers kvEvents() {
        return precise.subscribers();
    }

    /**
     * Drains, then stops every part in the reverse of their start: the config watch and the API first, the shared
     * state last. Draining: the health says NOT_SERVING and {@code /readyz} 503 at once, so gateways and Services
     * stop sending; neither data plane takes new connections or calls (ext_proc sends GOAWAY); requests and streams
     * under way on both end on their own for up to the drain timeout, their connections closed as each ends; what is
     * left then is cut. The admin port answers throughout.
     */
    @Override
    public void close() {
        synchronized (this) {
            started = false;
            pickerHealth.setDraining();
        }
        try {
            if (extProc != null) {
                extProc.beginDrain();
            }
            if (api != null) {
                int left = api.drain(options.drainTimeout());
                if (left > 0) {
                    System.getLogger(RouterServer.class.getName()).log(System.Logger.Level.WARNING,
                            "drain timeout: " + left + " requests still under way are cut");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            parts.close();
        }
    }
}
