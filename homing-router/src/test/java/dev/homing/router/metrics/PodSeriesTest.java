package dev.homing.router.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.protocol.metrics.PrometheusTextParser;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A pod that leaves the pool takes its per-pod series out of {@code /metrics}: pods come and go, series must not. */
class PodSeriesTest {

    private static final List<String> BY_POD = List.of("homing_scrape_errors_total", "homing_kv_events_batches_total",
            "homing_kv_events_applied_total", "homing_kv_events_gaps_total", "homing_kv_events_batches_lost_total",
            "homing_kv_events_replays_total", "homing_kv_events_restarts_total", "homing_kv_events_malformed_total",
            "homing_upstream_retries_total");

    private final EndpointPool pool = new EndpointPool();
    private final RouterMetrics metrics = new RouterMetrics("pool", pool);

    @Test
    void aPodThatLeavesTakesItsSeriesWithItAndTheOthersKeepTheirs() throws Exception {
        Endpoint a = new Endpoint("a", "10.0.0.1", 8000, Map.of());
        Endpoint b = new Endpoint("b", "10.0.0.2", 8000, Map.of());
        pool.setEndpoints(List.of(a, b));
        for (Endpoint e : List.of(a, b)) {
            report(e);
        }
        for (String name : BY_POD) {
            assertThat(pods(name)).as(name).containsExactlyInAnyOrder("a", "b");
        }

        pool.setEndpoints(List.of(b));

        for (String name : BY_POD) {
            assertThat(pods(name)).as(name).containsExactly("b");
        }
    }

    private void report(Endpoint e) {
        metrics.pool().scraped(e, false);
        KvEventMetrics kv = metrics.kvEvents();
        kv.batchTaken(e.name());
        kv.eventsApplied(e.name(), 3);
        kv.gap(e.name(), 2);
        kv.batchesLost(e.name(), 1);
        kv.replay(e.name(), true);
        kv.replay(e.name(), false);
        kv.restart(e.name());
        kv.malformed(e.name());
        metrics.requests().retried(e.name());
    }

    private Set<String> pods(String name) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        metrics.write(out);
        return PrometheusTextParser.parse(out.toString(StandardCharsets.UTF_8)).samples(name).stream()
                .map(s -> s.label("pod")).collect(Collectors.toSet());
    }
}
