package dev.homing.router;

import dev.homing.core.config.DefaultPolicy;
import dev.homing.core.director.Director;
import dev.homing.core.director.RoutingPolicy;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.plugin.PluginContext;
import dev.homing.core.plugin.PluginRegistry;
import dev.homing.core.plugins.prefix.ApproxPrefixCacheProducer;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.OpenAiError;
import dev.homing.router.admin.AdminHandlers;
import dev.homing.router.metrics.RouterMetrics;
import dev.homing.router.proxy.ErrorResponses;
import dev.homing.router.proxy.InferenceHandler;
import dev.homing.router.proxy.ModelsHandler;
import dev.homing.router.proxy.Upstream;
import dev.homing.router.scrape.EndpointCatalog;
import dev.homing.router.scrape.MetricsScraper;
import io.helidon.http.Method;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import java.net.http.HttpClient;
import java.util.List;
import java.util.SplittableRandom;

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

    private RouterServer(RouterOptions options) {
        this.options = options;
        this.pool = new EndpointPool(options.creditUnreflected());
        PluginContext ctx = new PluginContext(SystemTicker.INSTANCE, new SplittableRandom(options.seed()), pool);
        RoutingPolicy policy = DefaultPolicy.create(PluginRegistry.builtIn(), ctx);
        this.director = new Director(pool, policy, SystemTicker.INSTANCE);
        this.metrics = new RouterMetrics(options.poolName(), pool, this::prefixProducers);
        this.upstream = new Upstream(options.connectTimeout(), options.responseTimeout());
        this.scrapeClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(options.scrapeTimeout()).build();
        this.scraper = new MetricsScraper(pool, catalog, scrapeClient, options.scrapeInterval(), options.scrapeTimeout(),
                options.modelsInterval(), SystemTicker.INSTANCE, (e, ok, nanos) -> metrics.scraped(e, ok));
        pool.setEndpoints(options.endpoints());

        InferenceHandler inference = new InferenceHandler(director, catalog, upstream, metrics, SystemTicker.INSTANCE,
                options.maxBodyBytes(), options.maxAttempts());
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

    public static RouterServer start(RouterOptions options) {
        RouterServer s = new RouterServer(options);
        try {
            s.admin.start();
            requireListening(s.admin, options.adminHost(), options.adminPort(), "admin");
            s.api.start();
            requireListening(s.api, options.host(), options.port(), "API");
            s.scraper.start();
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

    @Override
    public void close() {
        api.stop();
        admin.stop();
        scraper.close();
        upstream.close();
        scrapeClient.close();
    }
}
