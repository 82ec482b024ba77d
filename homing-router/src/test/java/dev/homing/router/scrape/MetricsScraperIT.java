package dev.homing.router.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.plugins.datalayer.CoreMetricsExtractor;
import dev.homing.protocol.metrics.VllmMetrics;
import dev.homing.router.SystemTicker;
import dev.homing.router.upstream.UpstreamClient;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A pod whose /metrics answers and whose /v1/models does not, scraped every 20 ms by a real scraper. */
class MetricsScraperIT {

    @Test
    void aFailingModelsListIsAskedForAgainOnlyAfterABackOffAndDoesNotFailTheScrape() throws Exception {
        AtomicInteger metrics = new AtomicInteger();
        AtomicInteger models = new AtomicInteger();
        HttpServer pod = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        pod.createContext("/metrics", x -> {
            metrics.incrementAndGet();
            byte[] body = (VllmMetrics.NUM_REQUESTS_WAITING + "{model_name=\"m\"} 0\n").getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
        pod.createContext("/v1/models", x -> {
            models.incrementAndGet();
            x.sendResponseHeaders(500, -1);
            x.close();
        });
        pod.start();
        EndpointPool pool = new EndpointPool();
        pool.setEndpoints(List.of(new Endpoint("pod-0", "127.0.0.1", pod.getAddress().getPort())));
        EndpointCatalog catalog = new EndpointCatalog();
        try (UpstreamClient client = new UpstreamClient(Duration.ofSeconds(1), Duration.ofSeconds(1));
             MetricsScraper scraper = new MetricsScraper(pool, catalog, client, Duration.ofMillis(20),
                     Duration.ofMinutes(1), SystemTicker.INSTANCE, (e, ok, nanos) -> { },
                     CoreMetricsExtractor::builtIn)) {
            long start = System.nanoTime();
            scraper.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> metrics.get() >= 20);
            EndpointStatus status = catalog.status("pod-0");
            assertThat(status.lastError()).isNull();
            assertThat(status.consecutiveFailures()).isZero();
            assertThat(status.modelsKnown()).isFalse();
            // asked on the first scrape, then at most once a second, not on each of the 20 scrapes
            long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();
            assertThat(models.get()).isBetween(1, (int) seconds + 1);
        } finally {
            pod.stop(0);
        }
    }

    @Test
    void theConfiguredEngineTableSaysWhichMetricMeansWhat() throws Exception {
        HttpServer pod = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        pod.createContext("/metrics", x -> {
            byte[] body = "my_engine_queue 6\nmy_engine_busy 0.5\n".getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
        pod.start();
        EndpointPool pool = new EndpointPool();
        pool.setEndpoints(List.of(new Endpoint("pod-0", "127.0.0.1", pod.getAddress().getPort(),
                Map.of(CoreMetricsExtractor.ENGINE_LABEL, "mine"))));
        CoreMetricsExtractor configured = CoreMetricsExtractor.create("x", Parameters.of(new ObjectMapper().readTree(
                "{\"engineConfigs\":[{\"name\":\"mine\",\"queuedRequestsSpec\":\"my_engine_queue\","
                        + "\"kvUsageSpec\":\"my_engine_busy\"}]}")), new PluginContext(SystemTicker.INSTANCE,
                new SplittableRandom(1), pool));
        try (UpstreamClient client = new UpstreamClient(Duration.ofSeconds(1), Duration.ofSeconds(1));
             MetricsScraper scraper = new MetricsScraper(pool, new EndpointCatalog(), client, Duration.ofMillis(20),
                     Duration.ofMinutes(1), SystemTicker.INSTANCE, (e, ok, nanos) -> { },
                     () -> configured)) {
            scraper.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> pool.snapshot().get("pod-0").metrics().known());
            assertThat(pool.snapshot().get("pod-0").metrics().waiting()).isEqualTo(6);
            assertThat(pool.snapshot().get("pod-0").metrics().kvCacheUsage()).isEqualTo(0.5);
        } finally {
            pod.stop(0);
        }
    }
}
