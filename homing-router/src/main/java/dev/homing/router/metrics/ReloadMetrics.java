package dev.homing.router.metrics;

import dev.homing.router.config.ReloadOutcome;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Changes seen in one followed file, by outcome: {@code applied}, or {@code refused} (what ran stayed). Both series
 * exist from the start at 0, so that a first refusal is an increase a rate or an alert can see.
 */
public final class ReloadMetrics {

    private final Counter reloads;

    ReloadMetrics(PrometheusRegistry registry, String name, String help) {
        reloads = Counter.builder().name(name).help(help).labelNames("result").register(registry);
        reloads.initLabelValues("applied");
        reloads.initLabelValues("refused");
    }

    public void reloaded(ReloadOutcome outcome) {
        switch (outcome) {
            case APPLIED -> reloads.labelValues("applied").inc();
            case REFUSED -> reloads.labelValues("refused").inc();
            case UNCHANGED, SETTLING -> {
            }
        }
    }
}
