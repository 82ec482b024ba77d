package dev.homing.router.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.time.Ticker;
import dev.homing.protocol.openai.OpenAiError;
import dev.homing.router.auth.Access;
import dev.homing.router.explain.ScheduleHandler;
import dev.homing.router.http.ErrorResponses;
import dev.homing.router.metrics.RouterMetrics;
import dev.homing.router.scrape.EndpointCatalog;
import dev.homing.router.scrape.EndpointStatus;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.OutputStream;
import java.util.function.Supplier;

/**
 * The admin port: the router's metrics, liveness and readiness, what it knows of each endpoint, Prometheus HTTP
 * service discovery of the pods (so one Prometheus can scrape both the router and the pods it routes to), and where a
 * request would go and why ({@code POST /debug/schedule}).
 */
public final class AdminHandlers {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final EndpointPool pool;
    private final EndpointCatalog catalog;
    private final RouterMetrics metrics;
    private final Ticker ticker;
    private final ScheduleHandler schedule;
    private final Supplier<String> notReady;
    private final Access access;

    /**
     * @param notReady why the router is not ready (the pool not synced; with leader election, a standby), or null when
     *                 it is: what the gRPC health's readiness says
     */
    public AdminHandlers(EndpointPool pool, EndpointCatalog catalog, RouterMetrics metrics, Ticker ticker,
                         ScheduleHandler schedule, Supplier<String> notReady, Access access) {
        this.notReady = notReady;
        this.access = access;
        this.pool = pool;
        this.catalog = catalog;
        this.metrics = metrics;
        this.ticker = ticker;
        this.schedule = schedule;
    }

    public void register(HttpRouting.Builder routing) {
        routing.addFilter(this::authorized)
                .get("/metrics", this::metrics)
                .get("/healthz", (req, res) -> res.send("ok"))
                .get("/readyz", this::ready)
                .get("/debug/endpoints", this::endpoints)
                .get("/prometheus/targets", this::targets)
                .post("/debug/schedule", schedule::handle)
                .any((req, res) -> ErrorResponses.send(res,
                        OpenAiError.notFound("Unknown path " + req.path().path(), null)));
    }

    /**
     * With an admin token, every route but the probes' ({@code /healthz}, {@code /readyz}: kubelets carry no token)
     * asks for it as {@code Authorization: Bearer}; 401 in OpenAI's shape without it.
     */
    private void authorized(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        String path = req.path().path();
        if (path.equals("/healthz") || path.equals("/readyz")
                || access.admitsAdmin(req.headers().first(HeaderNames.AUTHORIZATION).orElse(null))) {
            chain.proceed();
            return;
        }
        res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer");
        ErrorResponses.send(res, OpenAiError.unauthorized("This admin route asks for the admin token: "
                + "'Authorization: Bearer <token>'."));
    }

    private void metrics(ServerRequest req, ServerResponse res) throws Exception {
        res.header(HeaderNames.CONTENT_TYPE, metrics.contentType());
        try (OutputStream out = res.outputStream()) {
            metrics.write(out);
        }
    }

    /**
     * Ready once the pool is synced (and, with leader election, this replica leads), as the gRPC health's readiness,
     * and some endpoint has been scraped: before that, every decision would be blind.
     */
    private void ready(ServerRequest req, ServerResponse res) {
        String why = notReady.get();
        if (why != null) {
            res.status(503).send("not ready: " + why);
            return;
        }
        boolean ready = pool.snapshot().endpoints().stream().anyMatch(e -> e.metrics().known());
        res.status(ready ? 200 : 503).send(ready ? "ready" : "no endpoint scraped yet");
    }

    private void endpoints(ServerRequest req, ServerResponse res) throws Exception {
        long now = ticker.nanos();
        ArrayNode out = JSON.createArrayNode();
        for (EndpointState e : pool.snapshot().endpoints()) {
            ObjectNode n = out.addObject();
            n.put("name", e.name());
            n.put("address", e.endpoint().address());
            n.putPOJO("labels", e.endpoint().labels());
            EndpointMetrics m = e.metrics();
            ObjectNode metricsNode = n.putObject("metrics");
            metricsNode.put("waitingQueueSize", m.waiting());
            metricsNode.put("runningRequests", m.running());
            if (Double.isNaN(m.kvCacheUsage())) {
                metricsNode.putNull("kvCacheUsage");
            } else {
                metricsNode.put("kvCacheUsage", m.kvCacheUsage());
            }
            metricsNode.put("blockSize", m.blockSize());
            metricsNode.put("numGpuBlocks", m.numGpuBlocks());
            metricsNode.putPOJO("activeModels", m.activeModels());
            metricsNode.putPOJO("waitingModels", m.waitingModels());
            metricsNode.put("maxActiveModels", m.maxActiveModels());
            if (m.known()) {
                n.put("metricsAgeMs", (now - m.updatedNanos()) / 1_000_000);
            } else {
                n.putNull("metricsAgeMs");
            }
            ObjectNode load = n.putObject("load");
            load.put("inFlightRequests", e.inFlightRequests());
            load.put("inFlightTokens", e.inFlightTokens());
            load.put("unreflectedRequests", e.load().unreflectedRequests());
            load.put("pendingPrefillTokens", e.pendingPrefillTokens());
            load.put("effectiveWaitingQueueSize", e.waitingQueueSize());
            load.put("effectiveKvCacheUsage", e.kvCacheUsage());
            EndpointStatus s = catalog.status(e.name());
            n.putPOJO("models", s.models());
            n.put("consecutiveScrapeFailures", s.consecutiveFailures());
            if (s.lastError() == null) {
                n.putNull("lastScrapeError");
            } else {
                n.put("lastScrapeError", s.lastError());
            }
        }
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(out));
    }

    /** Prometheus {@code http_sd_configs} format: each pod's metrics address with a {@code pod} label. */
    private void targets(ServerRequest req, ServerResponse res) throws Exception {
        ArrayNode out = JSON.createArrayNode();
        for (EndpointState e : pool.snapshot().endpoints()) {
            ObjectNode group = out.addObject();
            group.putArray("targets").add(e.endpoint().address());
            ObjectNode labels = group.putObject("labels");
            labels.put("pod", e.name());
            catalog.status(e.name()).models().stream().findFirst().ifPresent(m -> labels.put("model_name", m));
        }
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(JSON.writeValueAsBytes(out));
    }
}
