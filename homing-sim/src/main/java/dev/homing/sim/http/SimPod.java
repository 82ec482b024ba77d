package dev.homing.sim.http;

import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.OpenAiError;
import dev.homing.sim.engine.Engine;
import dev.homing.sim.engine.EngineStats;
import dev.homing.sim.engine.KvEventSink;
import dev.homing.sim.engine.RealTimeEngineDriver;
import dev.homing.sim.tokenizer.SimTokenizer;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerResponse;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One simulated vLLM pod: an {@link Engine} in real time behind vLLM's OpenAI-compatible HTTP surface.
 *
 * <pre>{@code
 * try (SimPod pod = SimPod.start(SimPodConfig.builder().preset(Preset.CPU_QWEN2_5_0_5B).podName("pod-a").build())) {
 *     URI base = URI.create(pod.baseUrl()); // POST base + "/v1/completions" ...
 * }
 * }</pre>
 *
 * <p>Serves {@code POST /v1/completions}, {@code POST /v1/chat/completions}, {@code GET /v1/models},
 * {@code GET /health}, {@code GET /metrics} and {@code POST /reset_prefix_cache}; anything else gets an OpenAI-shaped
 * 404 (or 405 for a known path with the wrong method). Every response carries {@code x-inference-pod}.
 */
public final class SimPod implements AutoCloseable {

    public static final String POD_HEADER = "x-inference-pod";

    private static final byte[] EMPTY = new byte[0];

    private final SimPodConfig config;
    private final RealTimeEngineDriver driver;
    private final WebServer server;
    private final AtomicBoolean closing;

    private SimPod(SimPodConfig config, RealTimeEngineDriver driver, WebServer server, AtomicBoolean closing) {
        this.config = config;
        this.driver = driver;
        this.server = server;
        this.closing = closing;
    }

    public static SimPod start(SimPodConfig config) {
        SimTokenizer tokenizer = SimTokenizer.builtin();
        Engine engine = new Engine(config.engine(), KvEventSink.NONE, new SplittableRandom(config.seed()));
        RealTimeEngineDriver driver = new RealTimeEngineDriver(engine, config.nanoTime(),
                "homing-sim-engine-" + config.podName()).start();
        PodMetrics metrics = new PodMetrics(config.modelName(), config.engine(), driver::stats);
        RequestIds ids = new RequestIds(config.seed());
        AtomicBoolean closing = new AtomicBoolean();
        CompletionHandler completions = new CompletionHandler(config, tokenizer, driver, metrics, ids, closing::get);
        WebServer server;
        try {
            server = WebServer.builder()
                    .host(config.host())
                    .port(config.port())
                    .shutdownGracePeriod(Duration.ofMillis(500))
                    .shutdownHook(false)
                    .routing(r -> routes(r, config, driver, metrics, ids, completions))
                    .build()
                    .start();
        } catch (RuntimeException e) {
            driver.close();
            throw e;
        }
        if (!server.isRunning() || server.port() < 0) {
            // Helidon logs a failed bind and returns a stopped server rather than throwing.
            driver.close();
            throw new IllegalStateException("the sim pod could not listen on " + config.host() + ":" + config.port());
        }
        return new SimPod(config, driver, server, closing);
    }

    private static void routes(HttpRouting.Builder r, SimPodConfig config, RealTimeEngineDriver driver,
            PodMetrics metrics, RequestIds ids, CompletionHandler completions) {
        r.addFilter((chain, req, res) -> {
            res.header(POD_HEADER, config.podName());
            chain.proceed();
        });
        r.post(ApiKind.COMPLETIONS.path(), (req, res) -> completions.handle(req, res, ApiKind.COMPLETIONS));
        r.post(ApiKind.CHAT_COMPLETIONS.path(), (req, res) -> completions.handle(req, res, ApiKind.CHAT_COMPLETIONS));
        r.get("/v1/models", (req, res) -> {
            res.header(HeaderNames.CONTENT_TYPE, "application/json");
            res.send(ResponseJson.models(config.servedModelNames(), config.model(), config.engine().maxModelLen(),
                    config.wallClock().instant().getEpochSecond(), ids));
        });
        r.get("/health", (req, res) -> res.send(EMPTY));
        r.get("/metrics", (req, res) -> {
            res.header(HeaderNames.CONTENT_TYPE, PodMetrics.contentType());
            res.send(metrics.scrape());
        });
        r.post("/reset_prefix_cache", (req, res) -> {
            if (driver.resetPrefixCache()) {
                res.send(EMPTY);
            } else {
                sendError(res, OpenAiError.badRequest(
                        "The prefix cache cannot be reset while requests hold KV blocks.", null));
            }
        });
        for (String path : new String[] {ApiKind.COMPLETIONS.path(), ApiKind.CHAT_COMPLETIONS.path(), "/v1/models",
            "/health", "/metrics", "/reset_prefix_cache"}) {
            r.any(path, (req, res) -> sendError(res,
                    OpenAiError.methodNotAllowed(req.prologue().method().text(), path)));
        }
        r.any((req, res) -> sendError(res, OpenAiError.notFound("Not Found: " + req.path().path(), null)));
        r.error(Throwable.class, (req, res, e) -> {
            System.getLogger(SimPod.class.getName()).log(System.Logger.Level.WARNING, "request failed", e);
            if (!res.isSent()) {
                sendError(res, OpenAiError.internal(String.valueOf(e.getMessage())));
            }
        });
    }

    static void sendError(ServerResponse res, OpenAiError error) {
        res.status(Status.create(error.status()));
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(error.toJson());
    }

    public SimPodConfig config() {
        return config;
    }

    /** The bound port (the chosen one when the config asked for 0). */
    public int port() {
        return server.port();
    }

    public String baseUrl() {
        String host = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
        return "http://" + host + ":" + port();
    }

    public EngineStats stats() {
        return driver.stats();
    }

    public boolean resetPrefixCache() {
        return driver.resetPrefixCache();
    }

    /** Stops serving; requests in flight are cut off. */
    @Override
    public void close() {
        closing.set(true);
        server.stop();
        driver.close();
    }
}
