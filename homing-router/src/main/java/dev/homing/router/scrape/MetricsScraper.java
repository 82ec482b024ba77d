package dev.homing.router.scrape;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointLoad;
import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.plugins.datalayer.CoreMetricsExtractor;
import dev.homing.core.time.Ticker;
import dev.homing.protocol.metrics.MetricsFormatException;
import dev.homing.protocol.metrics.MetricsText;
import dev.homing.protocol.metrics.PrometheusTextParser;
import dev.homing.router.upstream.UpstreamClient;
import dev.homing.router.upstream.UpstreamResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Scrapes every endpoint's {@code /metrics} on a fixed interval (llm-d: 50 ms) and its {@code /v1/models} now and
 * then, off the request path, and publishes the results into the pool. At most one scrape per endpoint is in flight;
 * a slow endpoint skips ticks rather than piling up requests.
 */
public final class MetricsScraper implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(MetricsScraper.class.getName());
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How soon an endpoint whose models are still unknown is asked again after a failed {@code /v1/models}. */
    private static final long MODELS_RETRY_NANOS = Duration.ofSeconds(1).toNanos();
    /** A pod's metrics or model list larger than this is refused, not read into memory. */
    static final int MAX_BODY_BYTES = 16 << 20;

    private final EndpointPool pool;
    private final EndpointCatalog catalog;
    private final UpstreamClient client;
    private final Duration interval;
    private final Duration modelsInterval;
    private final Ticker ticker;
    private final ScrapeObserver observer;
    private final Supplier<CoreMetricsExtractor> extractor;
    private volatile Reads reads;
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    /** When each endpoint's {@code /v1/models} was last asked for, answered or not; pruned to the pool each tick. */
    private final Map<String, Long> modelsAsked = new ConcurrentHashMap<>();
    private final ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "homing-scrape-ticker");
        t.setDaemon(true);
        return t;
    });
    private final ExecutorService scrapes = Executors.newVirtualThreadPerTaskExecutor();

    /** Hears every scrape's outcome (router metrics). */
    public interface ScrapeObserver {
        void scraped(Endpoint endpoint, boolean ok, long durationNanos);
    }

    /** @param extractor which metrics mean what, per engine: the running config's {@code core-metrics-extractor} */
    public MetricsScraper(EndpointPool pool, EndpointCatalog catalog, UpstreamClient client, Duration interval,
                          Duration modelsInterval, Ticker ticker, ScrapeObserver observer,
                          Supplier<CoreMetricsExtractor> extractor) {
        this.pool = pool;
        this.catalog = catalog;
        this.client = client;
        this.interval = interval;
        this.modelsInterval = modelsInterval;
        this.ticker = ticker;
        this.observer = observer;
        this.extractor = extractor;
    }

    public void start() {
        ticks.scheduleWithFixedDelay(this::tick, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void tick() {
        try {
            List<EndpointState> endpoints = pool.snapshot().endpoints();
            Set<String> names = new HashSet<>();
            for (EndpointState e : endpoints) {
                names.add(e.name());
                if (inFlight.add(e.name())) {
                    scrapes.execute(() -> {
                        try {
                            scrapeNow(e.endpoint());
                        } finally {
                            inFlight.remove(e.name());
                        }
                    });
                }
            }
            catalog.retain(names);
            modelsAsked.keySet().retainAll(names);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "scrape tick failed", e);
        }
    }

    /** Scrapes one endpoint once, synchronously. */
    public void scrapeNow(Endpoint endpoint) {
        EndpointLoad load = pool.load(endpoint.name());
        if (load == null) {
            return;
        }
        long mark = load.scrapeStarted();
        long start = ticker.nanos();
        boolean ok = false;
        try {
            byte[] body = get(endpoint, "/metrics");
            CoreMetricsExtractor names = extractor.get();
            MetricsText text = PrometheusTextParser.parse(new String(body, StandardCharsets.UTF_8), reads(names));
            long now = ticker.nanos();
            EndpointMetrics metrics = MetricsExtractor.extract(text, names.engineFor(endpoint.labels()), now);
            pool.updateMetrics(endpoint.name(), metrics, mark);
            catalog.update(endpoint.name(), s -> s.succeeded(now));
            ok = true;
            if (modelsDue(endpoint.name(), now)) {
                modelsAsked.put(endpoint.name(), now);
                fetchModels(endpoint);
            }
        } catch (IOException | MetricsFormatException | RuntimeException e) {
            String why = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            catalog.update(endpoint.name(), s -> s.failed(why));
        } finally {
            observer.scraped(endpoint, ok, ticker.nanos() - start);
        }
    }

    /** The names an extractor reads, kept while the config's extractor stays the same one. */
    private Predicate<String> reads(CoreMetricsExtractor names) {
        Reads r = reads;
        if (r == null || r.extractor() != names) {
            r = new Reads(names, MetricsExtractor.reads(names));
            reads = r;
        }
        return r.wanted();
    }

    private record Reads(CoreMetricsExtractor extractor, Predicate<String> wanted) {
    }

    /** Known models are refreshed every models interval; unknown ones are asked for again a second after a failure. */
    private boolean modelsDue(String name, long now) {
        EndpointStatus status = catalog.status(name);
        Long asked = modelsAsked.get(name);
        if (asked == null) {
            return true;
        }
        return now - asked >= (status.modelsKnown() ? modelsInterval.toNanos() : MODELS_RETRY_NANOS);
    }

    /** A failure here leaves the models as they were and does not fail the metrics scrape that succeeded. */
    private void fetchModels(Endpoint endpoint) {
        JsonNode data;
        try {
            data = JSON.readTree(get(endpoint, "/v1/models")).path("data");
        } catch (IOException e) {
            return;
        }
        Set<String> ids = new LinkedHashSet<>();
        List<JsonNode> entries = new ArrayList<>();
        for (JsonNode m : data) {
            String id = m.path("id").asText(null);
            if (id != null) {
                ids.add(id);
                entries.add(m);
            }
        }
        long now = ticker.nanos();
        catalog.update(endpoint.name(), s -> s.withModels(ids, entries, now));
    }

    /** The body of a 200 answer to {@code GET path}, at most {@link #MAX_BODY_BYTES}; else an IOException. */
    private byte[] get(Endpoint endpoint, String path) throws IOException {
        try (UpstreamResponse res = client.send(endpoint.address(), "GET", path, Map.of(), null)) {
            if (res.status() != 200) {
                throw new IOException("GET " + path + " answered " + res.status());
            }
            byte[] body = res.body().readNBytes(MAX_BODY_BYTES + 1);
            if (body.length > MAX_BODY_BYTES) {
                throw new IOException("GET " + path + " answered over " + MAX_BODY_BYTES + " bytes");
            }
            return body;
        }
    }

    @Override
    public void close() {
        ticks.shutdownNow();
        scrapes.shutdownNow();
    }
}
