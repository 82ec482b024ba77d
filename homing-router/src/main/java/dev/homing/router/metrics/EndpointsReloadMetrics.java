package dev.homing.router.metrics;

import dev.homing.router.discovery.EndpointsFile;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/** Changes of the endpoints file seen, by outcome. */
public final class EndpointsReloadMetrics {

    private final Counter reloads;

    EndpointsReloadMetrics(PrometheusRegistry registry) {
        reloads = Counter.builder().name("homing_endpoints_reloads_total")
                .help("Endpoints file changes seen, by outcome: applied, or refused (the running endpoints stayed).")
                .labelNames("result").register(registry);
    }

    public void reloaded(EndpointsFile.Reload outcome) {
        if (outcome != EndpointsFile.Reload.UNCHANGED) {
            reloads.labelValues(outcome == EndpointsFile.Reload.APPLIED ? "applied" : "refused").inc();
        }
    }
}
