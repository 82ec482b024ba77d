package dev.homing.router;

import dev.homing.core.config.ConfigException;
import dev.homing.core.config.ResolvedConfig;
import dev.homing.core.director.Director;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.requestcontrol.SaturationDetector;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.core.plugins.datalayer.CoreMetricsExtractor;
import dev.homing.core.plugins.prefix.approx.ApproxPrefixCacheProducer;
import dev.homing.core.precise.KvEventFeed;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.OpenAiError;
import dev.homing.router.admin.AdminHandlers;
import dev.homing.router.config.PolicySource;
import dev.homing.router.explain.ScheduleHandler;
import dev.homing.router.http.ErrorResponses;
import dev.homing.router.http.RequestIntake;
import dev.homing.router.metrics.RouterMetrics;
import dev.homing.router.precise.events.KvEventSubscribers;
import dev.homing.router.precise.redis.RedisIndexes;
import dev.homing.router.proxy.InferenceHandler;
import dev.homing.router.proxy.ModelsHandler;
import dev.homing.router.proxy.Upstream;
import dev.homing.router.scrape.EndpointCatalog;
import dev.homing.router.scrape.MetricsScraper;
import dev.homing.router.shared.SharedState;
import dev.homing.router.tokens.PodTokenSource;
import dev.homing.router.tokens.TokenPrefixCache;
import io.helidon.http.Method;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import java.net.http.HttpClient;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A running router: the API port (OpenAI-compatible proxy), the admin port, the scraper, and the director between
 * them. The composition root of the router module.
 */
public final class RouterServer implements AutoCloseable {

    private final RouterOptions options;
    private final EndpointPool pool;
    private final EndpointCatalog catalog = new EndpointCatalog();
    private final Director director;
    private final RouterMetrics metrics;
    private final Upstream upstream;
    private final HttpClient scrapeClient;
    private final MetricsScraper scraper;
    private final WebServer api;
    private final WebServer admin;
    private final PolicySource policy;
    private final KvEventSubscribers kvEvents;
    private final SharedState shared; // null without a Redis shared by replicas
    private final RedisIndexes sharedIndexes; // null without a Redis shared by replicas
    private final PodTokenSource tokens; // null when the options bring their own token source
    /** Tokens kept for prefix reuse (40 MB of ints), and the share of a prompt a cached prefix must cover (llm-d's). */
    private static final long TOKEN_CACHE_TOKENS = 10_000_000;
    private static final double TOKEN_CACHE_MIN_OVERLAP = 0.8;
    private final ScheduledExecutorService reloads = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "homing-config-reload");
        t.setDaemon(true);
        return t;
    });

    private static final CoreMetricsExtractor BUILT_IN_EXTRACTOR = CoreMetricsExtractor.builtIn();

    private RouterServer(RouterOptions options) throws ConfigException {
        this.options = options;
        this.pool = new EndpointPool(options.creditUnreflected());
        // Precise prefix matching needs the tokens the pods will see: by default, ask the pods themselves.
        this.tokens = options.tokenSource() != null ? null : new PodTokenSource(pool, catalog,
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(options.connectTimeout()).build(),
                new TokenPrefixCache(TOKEN_CACHE_TOKENS, TOKEN_CACHE_MIN_OVERLAP));
        PluginContext ctx = new PluginContext(SystemTicker.INSTANCE, new SplittableRandom(options.seed()), pool)
                .withTokens(options.tokenSource() != null ? options.tokenSource() : tokens);
        // Shared state for replicas: with a Redis, the precise index lives there and in-flight counts are shared.
        this.shared = options.redisUrl() == null ? null
                : SharedState.create(options.redisUrl(), options.poolName(), pool, SystemTicker.INSTANCE);
        this.sharedIndexes = shared == null ? null : new RedisIndexes(shared.redis(), SystemTicker.INSTANCE);
        if (sharedIndexes != null) {
            ctx = ctx.withPreciseIndexes(sharedIndexes.factory());
        }
        try {
            this.policy = PolicySource.load(options.configFile(), options.precise(), BuiltIns.registry(), ctx);
        } catch (ConfigException | RuntimeException e) {
            // nothing is left running when the router cannot start
            if (sharedIndexes != null) {
                sharedIndexes.close();
            }
            if (shared != null) {
                shared.close();
            }
            if (tokens != null) {
                tokens.close();
            }
            throw e;
        }
        this.director = new Director(pool, policy.current().policy(), SystemTicker.INSTANCE);
        this.metrics = new RouterMetrics(options.poolName(), pool);
        metrics.policy(this::prefixProducers, this::preciseProducers, this::poolSaturation);
        this.kvEvents = new KvEventSubscribers(pool, metrics.kvEvents(), SystemTicker.INSTANCE);
        if (shared != null) {
            metrics.sharedState(pool, shared.redis()::up, shared.redis()::fallbacks);
        }
        this.upstream = new Upstream(options.connectTimeout(), options.responseTimeout());
        this.scrapeClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(options.scrapeTimeout()).build();
        this.scraper = new MetricsScraper(pool, catalog, scrapeClient, options.scrapeInterval(), options.scrapeTimeout(),
                options.modelsInterval(), SystemTicker.INSTANCE, (e, ok, nanos) -> metrics.pool().scraped(e, ok),
                this::metricsExtractor);
        pool.setEndpoints(options.endpoints());

        RequestIntake intake = new RequestIntake(catalog, options.maxBodyBytes());
        InferenceHandler inference = new InferenceHandler(director, catalog, intake, upstream, metrics.requests(),
                SystemTicker.INSTANCE, options.maxAttempts());
        ScheduleHandler schedule = new ScheduleHandler(director, catalog, intake);
        ModelsHandler models = new ModelsHandler(catalog);
        this.api = WebServer.builder()
                .host(options.host()).port(options.port()).shutdownHook(false)
                .routing(r -> apiRoutes(r, inference, models))
                .build();
        AdminHandlers adminHandlers = new AdminHandlers(pool, catalog, metrics, SystemTicker.INSTANCE);
        this.admin = WebServer.builder()
                .host(options.adminHost()).port(options.adminPort()).shutdownHook(false)
                .routing(r -> {
                    adminHandlers.register(r);
                    r.post("/debug/schedule", schedule::handle);
                    r.any((req, res) -> ErrorResponses.send(res,
                            OpenAiError.notFound("Unknown path " + req.path().path(), null)));
                })
                .build();
    }

    private static void apiRoutes(HttpRouting.Builder r, InferenceHandler inference, ModelsHandler models) {
        r.post(ApiKind.COMPLETIONS.path(), (req, res) -> inference.handle(ApiKind.COMPLETIONS, req, res))
                .post(ApiKind.CHAT_COMPLETIONS.path(), (req, res) -> inference.handle(ApiKind.CHAT_COMPLETIONS, req, res))
                .get("/v1/models", models::handle)
                .get("/health", (req, res) -> res.send())
                .any((req, res) -> {
                    String path = req.path().path();
                    boolean known = path.equals(ApiKind.COMPLETIONS.path()) || path.equals(ApiKind.CHAT_COMPLETIONS.path())
                            || path.equals("/v1/models");
                    Method m = req.prologue().method();
                    ErrorResponses.send(res, known ? OpenAiError.methodNotAllowed(m.text(), path)
                            : OpenAiError.notFound("Unknown path " + path, null));
                });
    }

    /**
     * Starts the router.
     *
     * @throws ConfigException when the config file cannot be used; nothing is left running
     */
    public static RouterServer start(RouterOptions options) throws ConfigException {
        RouterServer s = new RouterServer(options);
        try {
            if (s.shared != null) {
                s.shared.start();
                s.sharedIndexes.start();
            }
            s.admin.start();
            requireListening(s.admin, options.adminHost(), options.adminPort(), "admin");
            s.api.start();
            requireListening(s.api, options.host(), options.port(), "API");
            s.scraper.start();
            s.kvEvents.wire(s.preciseProducers());
            if (options.configFile() != null) {
                s.reloads.scheduleWithFixedDelay(s::reload, options.configPollInterval().toNanos(),
                        options.configPollInterval().toNanos(), TimeUnit.NANOSECONDS);
            }
            return s;
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** Helidon logs a failed bind and returns a stopped server rather than throwing; turn that into an error. */
    private static void requireListening(WebServer server, String host, int port, String what) {
        if (!server.isRunning() || server.port() < 0) {
            throw new IllegalStateException("the router's " + what + " port could not listen on " + host + ":" + port
                    + " (in use?)");
        }
    }

    private void reload() {
        try {
            PolicySource.Reload outcome = policy.reload(director);
            metrics.configReloads().reloaded(outcome);
            if (outcome == PolicySource.Reload.APPLIED) {
                kvEvents.wire(preciseProducers());
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

    private List<ApproxPrefixCacheProducer> prefixProducers() {
        return director.policy().producers().stream()
                .filter(ApproxPrefixCacheProducer.class::isInstance)
                .map(ApproxPrefixCacheProducer.class::cast)
                .toList();
    }

    public int port() {
        return api.port();
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
        return kvEvents;
    }

    @Override
    public void close() {
        reloads.shutdownNow();
        kvEvents.close();
        api.stop();
        admin.stop();
        scraper.close();
        upstream.close();
        scrapeClient.close();
        if (sharedIndexes != null) {
            sharedIndexes.close();
        }
        if (shared != null) {
            shared.close();
        }
        if (tokens != null) {
            tokens.close();
        }
    }
}
