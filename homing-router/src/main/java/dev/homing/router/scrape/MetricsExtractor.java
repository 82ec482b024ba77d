package dev.homing.router.scrape;

import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.plugins.datalayer.CoreMetricsExtractor;
import dev.homing.core.plugins.datalayer.EngineConfig;
import dev.homing.core.plugins.datalayer.MetricSpec;
import dev.homing.protocol.metrics.MetricsText;
import dev.homing.protocol.metrics.Sample;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Turns one scrape's text into the signals scheduling reads, where the endpoint's engine keeps them (llm-d's
 * {@code core-metrics-extractor} and its {@link EngineConfig engine configs}).
 */
public final class MetricsExtractor {

    private MetricsExtractor() {
    }

    /** The metric names {@link #extract} may read under this extractor: what a scrape needs to parse. */
    public static Predicate<String> reads(CoreMetricsExtractor extractor) {
        return Set.copyOf(extractor.metricNames())::contains;
    }

    public static EndpointMetrics extract(MetricsText m, EngineConfig engine, long nowNanos) {
        int waiting = count(value(m, engine.queuedRequests()));
        int running = count(value(m, engine.runningRequests()));
        double kv = value(m, engine.kvUsage());
        if (Double.isNaN(kv)) {
            kv = value(m, engine.kvUsageFallback());
        }
        int blockSize = -1;
        long numBlocks = -1;
        Sample cache = sample(m, engine.cacheInfo());
        if (cache != null) {
            blockSize = (int) parseLong(cache.label(engine.cacheBlockSizeLabelName()));
            numBlocks = parseLong(cache.label(engine.cacheNumBlocksLabelName()));
        } else {
            blockSize = (int) orMinusOne(value(m, engine.cacheBlockSize()));
            numBlocks = orMinusOne(value(m, engine.cacheNumBlocks()));
        }
        Set<String> active = Set.of();
        Set<String> waitingModels = Set.of();
        int maxLora = -1;
        if (engine.lora() != null) {
            // vLLM sets the value to the time of the update; the newest series is the current one (llm-d's rule).
            Sample lora = null;
            for (Sample s : m.samples(engine.lora().name())) {
                if (matches(s, engine.lora()) && (lora == null || s.value() >= lora.value())) {
                    lora = s;
                }
            }
            if (lora != null) {
                active = adapters(lora.label("running_lora_adapters"));
                waitingModels = adapters(lora.label("waiting_lora_adapters"));
                maxLora = (int) parseLong(lora.label("max_lora"));
            }
        }
        return new EndpointMetrics(waiting, running, kv, blockSize, numBlocks, active, waitingModels, maxLora, nowNanos);
    }

    private static double value(MetricsText m, MetricSpec spec) {
        Sample s = sample(m, spec);
        return s == null ? Double.NaN : s.value();
    }

    /** The newest series of the spec's metric whose labels include the spec's; null when none or no spec. */
    private static Sample sample(MetricsText m, MetricSpec spec) {
        if (spec == null) {
            return null;
        }
        if (spec.labels().isEmpty()) {
            return m.latestSample(spec.name());
        }
        Sample best = null;
        for (Sample s : m.samples(spec.name())) {
            if (matches(s, spec) && (best == null || s.timestampMs() >= best.timestampMs())) {
                best = s;
            }
        }
        return best;
    }

    private static boolean matches(Sample s, MetricSpec spec) {
        for (Map.Entry<String, String> l : spec.labels().entrySet()) {
            if (!l.getValue().equals(s.label(l.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private static int count(double v) {
        return Double.isNaN(v) ? -1 : (int) Math.max(0, Math.round(v));
    }

    private static long orMinusOne(double v) {
        return Double.isNaN(v) ? -1 : (long) v;
    }

    private static long parseLong(String s) {
        if (s == null || s.isBlank() || s.equals("None")) {
            return -1;
        }
        try {
            return (long) Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static Set<String> adapters(String csv) {
        if (csv == null || csv.isBlank()) {
            return Set.of();
        }
        Set<String> out = new LinkedHashSet<>();
        Arrays.stream(csv.split(",")).map(String::strip).filter(s -> !s.isEmpty()).forEach(out::add);
        return out;
    }
}
