package dev.homing.router.scrape;

import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.protocol.metrics.MetricsText;
import dev.homing.protocol.metrics.Sample;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/** Turns one scrape's text into the signals scheduling reads (llm-d's {@code core-metrics-extractor}). */
public final class MetricsExtractor {

    private MetricsExtractor() {
    }

    public static EndpointMetrics extract(MetricsText m, MetricNames names, long nowNanos) {
        int waiting = count(m.latest(names.waiting()));
        int running = count(m.latest(names.running()));
        double kv = m.latest(names.kvUsage());
        if (Double.isNaN(kv) && names.kvUsageFallback() != null) {
            kv = m.latest(names.kvUsageFallback());
        }
        int blockSize = -1;
        long numBlocks = -1;
        Sample cache = m.latestSample(names.cacheInfo());
        if (cache != null) {
            blockSize = (int) parseLong(cache.label(names.cacheBlockSizeLabel()));
            numBlocks = parseLong(cache.label(names.cacheNumBlocksLabel()));
        }
        Set<String> active = Set.of();
        Set<String> waitingModels = Set.of();
        int maxLora = -1;
        if (names.loraInfo() != null) {
            // vLLM sets the value to the time of the update; the newest series is the current one (llm-d's rule).
            Sample lora = null;
            for (Sample s : m.samples(names.loraInfo())) {
                if (lora == null || s.value() >= lora.value()) {
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

    private static int count(double v) {
        return Double.isNaN(v) ? -1 : (int) Math.max(0, Math.round(v));
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
