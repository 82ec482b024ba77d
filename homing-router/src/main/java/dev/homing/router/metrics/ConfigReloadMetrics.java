package dev.homing.router.metrics;

import dev.homing.router.config.PolicySource;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/** Changes of the config file seen, by outcome. */
public final class ConfigReloadMetrics {

    private final Counter reloads;

    ConfigReloadMetrics(PrometheusRegistry registry) {
        reloads = Counter.builder().name("homing_config_reloads_total")
                .help("Config file changes seen, by outcome: applied, or refused (the running config stayed).")
                .labelNames("result").register(registry);
    }

    public void reloaded(PolicySource.Reload outcome) {
        if (outcome != PolicySource.Reload.UNCHANGED) {
            reloads.labelValues(outcome == PolicySource.Reload.APPLIED ? "applied" : "refused").inc();
        }
    }
}
