package dev.homing.router.metrics;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.router.outlier.HealthChecks;
import dev.homing.router.outlier.PodHealth;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Which endpoints are left out of the candidates and why: ejected for failing (passive detection or failed
 * {@code /health} probes), or stale metrics; how often each was ejected and readmitted; its probes.
 */
final class PodHealthMetrics {

    private PodHealthMetrics() {
    }

    static void register(PrometheusRegistry registry, EndpointPool pool, PodHealth health) {
        GaugeWithCallback.builder().name("homing_endpoint_ejected")
                .help("1 while an endpoint is left out of the candidates for failing: requests failing in a row, or "
                        + "its /health probes.")
                .labelNames("pod")
                .callback(cb -> pool.snapshot().endpoints().forEach(e -> cb.call(health.failing(e.name()) ? 1 : 0,
                        e.name())))
                .register(registry);
        GaugeWithCallback.builder().name("homing_endpoint_stale")
                .help("1 while an endpoint is left out of the candidates because its metrics are older than the "
                        + "staleness limit (and some other endpoint's are not).")
                .labelNames("pod")
                .callback(cb -> pool.snapshot().endpoints().forEach(e -> cb.call(health.stale(e.name()) ? 1 : 0,
                        e.name())))
                .register(registry);
        CounterWithCallback.builder().name("homing_endpoint_ejections")
                .help("Times an endpoint was ejected for failing requests in a row.").labelNames("pod")
                .callback(cb -> health.ejections().forEach((pod, ejected, n, back) -> cb.call(n, pod)))
                .register(registry);
        CounterWithCallback.builder().name("homing_endpoint_readmissions")
                .help("Times an ejected endpoint answered again and was readmitted.").labelNames("pod")
                .callback(cb -> health.ejections().forEach((pod, ejected, n, back) -> cb.call(back, pod)))
                .register(registry);
        HealthChecks checks = health.checks();
        if (checks != null) {
            CounterWithCallback.builder().name("homing_endpoint_health_checks")
                    .help("GET /health probes sent to an endpoint, by outcome.").labelNames("pod", "outcome")
                    .callback(cb -> pool.snapshot().endpoints().forEach(e -> {
                        long[] c = checks.counts(e.name());
                        cb.call(c[0] - c[1], e.name(), "ok");
                        cb.call(c[1], e.name(), "failed");
                    }))
                    .register(registry);
        }
    }
}
