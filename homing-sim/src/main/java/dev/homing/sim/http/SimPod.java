package dev.homing.sim.http;

import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.OpenAiError;
import dev.homing.sim.engine.EngineStats;
import dev.homing.sim.engine.KvEventSink;
import dev.homing.sim.engine.RealTimeEngineDriver;
import dev.homing.sim.kvevents.KvEventsConfig;
import dev.homing.sim.kvevents.LiveFaults;
import dev.homing.sim.kvevents.StepBatcher;
import dev.homing.sim.kvevents.ZmqEndpoints;
import dev.homing.sim.kvevents.ZmqEventPublisher;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One simulated vLLM pod: an {@link Engine} in real time behind vLLM's OpenAI-compatible HTTP surface, publishing
 * vLLM's KV-cache events over ZMQ when {@link SimPodConfig#kvEvents()} enables them.
 *
 * <pre>{@code
 * try (SimPod pod = SimPod.start(SimPodConfig.builder().preset(Preset.CPU_QWEN2_5_0_5B).podName("pod-a").build())) {
 *     URI base = URI.create(pod.baseUrl()); // POST base + "/v1/completions" ...
 * }
 * }</pre>
 *
 * <p>Serves {@code POST /v1/completions}, {@code POST /v1/chat/completions}, their {@code /render} variants,
 * {@code POST /v1/responses} with {@code GET /v1/responses/{id}} and {@code POST /v1/responses/{id}/cancel},
 * {@code POST /v1/embeddings}, {@code POST /tokenize}, {@code POST /detokenize}, {@code GET /v1/models}, {@code POST /v1/load_lora_adapter},
 * {@code POST /v1/unload_lora_adapter}, {@code GET /health}, {@code GET|POST /ping}, {@code GET /version},
 * {@code GET /metrics} and {@code POST /reset_prefix_cache}; anything else gets an OpenAI-shaped 404 (or 405 for a
 * known path with the wrong method). Every response carries {@code x-inference-pod}. The headers of the last few
 * completion and chat requests are kept for tests ({@link #recentRequestHeaders()}); the pod otherwise ignores
 * headers a P/D sidecar would read, such as {@code x-prefiller-host-port}: it serves the whole request itself, as a
 * plain vLLM pod does.
 */
public final class SimPod implements AutoCloseable {

    public static final String POD_HEADER = "x-inference-pod";
    /** What {@code GET /version} reports: the vLLM release whose behaviour the pod follows by default. */
    public static final String VLLM_VERSION = "0.11.0";

    private static final byte[] EMPTY = new byte[0];

    private final SimPodConfig config;
    private final RealTimeEngineDriver driver;
    private final WebServer server;
    private final AtomicBoolean closing;
    private final ZmqEventPublisher publisher;
    private final StepBatcher batcher;
    private final RecentHeaders recentHeaders;

    private SimPod(SimPodConfig config, RealTimeEngineDriver driver, WebServer server, AtomicBoolean closing,
            ZmqEventPublisher publisher, StepBatcher batcher, RecentHeaders recentHeaders) {
        this.config = config;
        this.recentHeaders = recentHeaders;
        this.driver = driver;
        this.server = server;
        this.closing = closing;
        this.publisher = publisher;
        this.batcher = batcher;
    }

    public static SimPod start(SimPodConfig config) {
        return start(config, LiveFaults.NONE);
    }

    /** A pod whose live KV-event stream suffers {@code faults} from its first batch (see {@link #kvEventFaults}). */
    public static SimPod start(SimPodConfig config, LiveFaults faults) {
        return start(config, faults, false);
    }

    private static SimPod start(SimPodConfig config, LiveFaults faults, boolean rebind) {
        ZmqEventPublisher publisher = null;
        StepBatcher batcher = null;
        KvEventsConfig events = config.kvEvents();
        if (events.publishes()) {
            String thread = "homing-sim-kv-events-" + config.podName();
            publisher = rebind ? ZmqEventPublisher.restartBound(events, thread, faults)
                    : ZmqEventPublisher.start(events, thread, faults);
            batcher = new StepBatcher(events, config.wallClock(), publisher);
        }
        AtomicBoolean closing = new AtomicBoolean();
        PodServices pod;
        try {
            pod = PodServices.start(config, batcher == null ? KvEventSink.NONE : batcher, closing::get);
        } catch (RuntimeException e) {
            closeQuietly(publisher);
            throw e;
        }
        RealTimeEngineDriver driver = pod.driver();
        CompletionHandler completions = new CompletionHandler(pod);
        ResponsesHandler responses = new ResponsesHandler(pod, new ResponseStore(config.responsesStoreCapacity()));
        EmbeddingsHandler embeddings = new EmbeddingsHandler(pod);
        int maxLen = config.engine().maxModelLen();
        TokenizeHandler tokenize = new TokenizeHandler(pod.tokenizer(), pod.models(), maxLen,
                config.maxRequestBodyBytes());
        RenderHandler render = new RenderHandler(pod.tokenizer(), pod.models(), pod.ids(), maxLen,
                config.maxRequestBodyBytes());
        LoraHandler lora = new LoraHandler(pod.models(), config.maxRequestBodyBytes());
        RecentHeaders recentHeaders = new RecentHeaders();
        WebServer server;
        try {
            server = WebServer.builder()
                    .host(config.host())
                    .port(config.port())
                    .shutdownGracePeriod(Duration.ofMillis(500))
                    .shutdownHook(false)
                    .routing(r -> routes(r, pod, completions, responses, embeddings, tokenize, render, lora,
                            recentHeaders))
                    .build()
                    .start();
        } catch (RuntimeException e) {
            driver.close();
            closeQuietly(publisher);
            throw e;
        }
        if (!server.isRunning() || server.port() < 0) {
            // Helidon logs a failed bind and returns a stopped server rather than throwing.
            driver.close();
            closeQuietly(publisher);
            throw new IllegalStateException("the sim pod could not listen on " + config.host() + ":" + config.port());
        }
        return new SimPod(config, driver, server, closing, publisher, batcher, recentHeaders);
    }

    private static void routes(HttpRouting.Builder r, PodServices pod, CompletionHandler completions,
            ResponsesHandler responses, EmbeddingsHandler embeddings, TokenizeHandler tokenize, RenderHandler render,
            LoraHandler lora, RecentHeaders recentHeaders) {
        SimPodConfig config = pod.config();
        r.addFilter((chain, req, res) -> {
            res.header(POD_HEADER, config.podName());
            chain.proceed();
        });
        Set<String> known = new LinkedHashSet<>();
        route(r, known, Method.POST, ApiKind.COMPLETIONS.path(), (req, res) -> {
            recentHeaders.record(req.headers());
            completions.handle(req, res, ApiKind.COMPLETIONS);
        });
        route(r, known, Method.POST, ApiKind.CHAT_COMPLETIONS.path(), (req, res) -> {
            recentHeaders.record(req.headers());
            completions.handle(req, res, ApiKind.CHAT_COMPLETIONS);
        });
        route(r, known, Method.POST, ApiKind.COMPLETIONS.path() + "/render",
                (req, res) -> render.handle(req, res, ApiKind.COMPLETIONS));
        route(r, known, Method.POST, ApiKind.CHAT_COMPLETIONS.path() + "/render",
                (req, res) -> render.handle(req, res, ApiKind.CHAT_COMPLETIONS));
        route(r, known, Method.POST, ApiKind.RESPONSES.path(), responses::create);
        route(r, known, Method.GET, ApiKind.RESPONSES.path() + "/{response_id}", responses::retrieve);
        route(r, known, Method.POST, ApiKind.RESPONSES.path() + "/{response_id}/cancel", responses::cancel);
        route(r, known, Method.POST, ApiKind.EMBEDDINGS.path(), embeddings::handle);
        route(r, known, Method.POST, "/tokenize", tokenize::tokenize);
        route(r, known, Method.POST, "/detokenize", tokenize::detokenize);
        route(r, known, Method.POST, "/v1/load_lora_adapter", lora::load);
        route(r, known, Method.POST, "/v1/unload_lora_adapter", lora::unload);
        route(r, known, Method.GET, "/v1/models", (req, res) -> {
            res.header(HeaderNames.CONTENT_TYPE, "application/json");
            res.send(ResponseJson.models(config.servedModelNames(), config.model(), config.engine().maxModelLen(),
                    pod.models().adapters(), config.wallClock().instant().getEpochSecond(), pod.ids()));
        });
        route(r, known, Method.GET, "/health", (req, res) -> res.send(EMPTY));
        route(r, known, Method.GET, "/ping", (req, res) -> res.send(EMPTY));
        route(r, known, Method.POST, "/ping", (req, res) -> res.send(EMPTY));
        route(r, known, Method.GET, "/version", (req, res) -> {
            res.header(HeaderNames.CONTENT_TYPE, "application/json");
            res.send(("{\"version\":\"" + VLLM_VERSION + "\"}").getBytes(StandardCharsets.UTF_8));
        });
        route(r, known, Method.GET, "/metrics", (req, res) -> {
            res.header(HeaderNames.CONTENT_TYPE, PodMetrics.contentType());
            res.send(pod.metrics().scrape());
        });
        route(r, known, Method.POST, "/reset_prefix_cache", (req, res) -> {
            if (pod.driver().resetPrefixCache()) {
                res.send(EMPTY);
            } else {
                sendError(res, OpenAiError.badRequest(
                        "The prefix cache cannot be reset while requests hold KV blocks.", null));
            }
        });
        for (String path : known) {
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

    /** Registers a route and remembers its path, so other methods on it get 405 rather than 404. */
    private static void route(HttpRouting.Builder r, Set<String> known, Method method, String path, Handler handler) {
        r.route(method, path, handler);
        known.add(path);
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

    /** The KV-event PUB endpoint as bound or connected (a {@code *} port resolved), or null when not publishing. */
    public String kvEventsEndpoint() {
        return publisher == null ? null : publisher.endpoint();
    }

    /** The replay ROUTER endpoint as bound, or null. */
    public String kvEventsReplayEndpoint() {
        return publisher == null ? null : publisher.replayEndpoint();
    }

    /**
     * The headers of the last completion and chat requests this pod received (at most 16), oldest first; names
     * lower-cased. What a router forwarded, for tests: a P/D router's {@code x-prefiller-host-port}, for instance.
     */
    public List<Map<String, String>> recentRequestHeaders() {
        return recentHeaders.snapshot();
    }

    /** The headers of the last completion or chat request this pod received, or an empty map before the first. */
    public Map<String, String> lastRequestHeaders() {
        List<Map<String, String>> recent = recentHeaders.snapshot();
        return recent.isEmpty() ? Map.of() : recent.getLast();
    }

    /**
     * Stops this pod ({@link #close()}), waits {@code down}, and starts it again as the same pod restarted: on the same
     * HTTP port and KV-event endpoints (a PUB socket that was bound binds again), with an empty KV cache and its event
     * sequence from 0, its live event stream suffering {@code faults} from its first batch (a subscriber that redials
     * late misses the first ones: {@link LiveFaults#dropFirst}).
     */
    public SimPod restart(Duration down, LiveFaults faults) throws InterruptedException {
        KvEventsConfig events = config.kvEvents();
        boolean rebind = false;
        if (publisher != null) {
            rebind = ZmqEndpoints.binds(events.endpoint());
            events = events.withEndpoint(publisher.endpoint());
            if (publisher.replayEndpoint() != null) {
                events = events.withReplayEndpoint(publisher.replayEndpoint());
            }
        }
        SimPodConfig again = config.toBuilder().port(port()).kvEvents(events).build();
        close();
        Thread.sleep(down.toMillis());
        return start(again, faults, rebind);
    }

    /**
     * What the wire does to this pod's live KV-event stream from the next batch on, for fault tests: batches lost or
     * delivered out of order ({@link LiveFaults}); its replay socket still has every one. No-op without events.
     */
    public void kvEventFaults(LiveFaults faults) {
        if (publisher != null) {
            publisher.faults(faults);
        }
    }

    /** KV-event batches the live stream lost to {@link #kvEventFaults} (its replay socket kept them). */
    public long kvEventBatchesLostLive() {
        return publisher == null ? 0 : publisher.liveDropped();
    }

    /** KV-event batches {@link #kvEventFaults} held back and sent after a later one. */
    public long kvEventBatchesReordered() {
        return publisher == null ? 0 : publisher.liveReordered();
    }

    /** KV-event batches sent so far. */
    public long kvEventBatchesPublished() {
        return publisher == null ? 0 : publisher.publishedBatches();
    }

    /** KV-event batches dropped because the publisher's queue was full. */
    public long kvEventBatchesDropped() {
        return batcher == null ? 0 : batcher.droppedBatches();
    }

    /** Stops serving; requests in flight are cut off, queued KV events get up to a second to go out. */
    @Override
    public void close() {
        closing.set(true);
        server.stop();
        driver.close();
        closeQuietly(publisher);
    }

    private static void closeQuietly(ZmqEventPublisher publisher) {
        if (publisher != null) {
            publisher.close();
        }
    }
}
