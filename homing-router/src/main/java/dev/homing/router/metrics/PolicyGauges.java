package dev.homing.router.metrics;

import dev.homing.core.plugins.prefix.approx.ApproxPrefixCacheProducer;
import dev.homing.core.precise.KvEventFeed;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * What the running config's plugins report, read from whichever config runs when {@code /metrics} is asked for (a
 * reload may replace them): the prefix indexes' sizes and hit ratio, and the saturation detector's pool saturation.
 */
final class PolicyGauges {

    private PolicyGauges() {
    }

    /**
     * @param preciseProducers the running config's precise producers, whose index sizes are reported
     * @param saturation       the configured saturation detector's pool saturation, or NaN without one
     */
    static void register(PrometheusRegistry registry, Supplier<List<ApproxPrefixCacheProducer>> prefixProducers,
                         Supplier<List<KvEventFeed>> preciseProducers, DoubleSupplier saturation) {
        GaugeWithCallback.builder().name("homing_precise_index_size")
                .help("Entries of a precise producer's index: (pod, block, tier) holdings.").labelNames("producer")
                .callback(cb -> preciseProducers.get().forEach(p -> cb.call(p.index().size(), p.name())))
                .register(registry);
        GaugeWithCallback.builder().name("inference_extension_prefix_indexer_size")
                .help("Size of the prefix indexer: (endpoint, block) entries.")
                .callback(cb -> cb.call(prefixProducers.get().stream().mapToLong(p -> p.index().size()).sum()))
                .register(registry);
        GaugeWithCallback.builder().name("inference_extension_prefix_indexer_hit_ratio")
                .help("Share of prompt blocks found in the prefix indexer for the best endpoint, since start.")
                .callback(cb -> cb.call(prefixProducers.get().stream().mapToDouble(ApproxPrefixCacheProducer::hitRatio)
                        .max().orElse(0)))
                .register(registry);
        GaugeWithCallback.builder().name("inference_extension_flow_control_pool_saturation")
                .help("Pool saturation from the configured saturation detector: 0 idle, 1.0 at capacity.")
                .callback(cb -> {
                    double v = saturation.getAsDouble();
                    if (!Double.isNaN(v)) {
                        cb.call(v);
                    }
                })
                .register(registry);
    }
}
