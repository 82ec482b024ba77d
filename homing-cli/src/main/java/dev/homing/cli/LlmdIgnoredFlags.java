package dev.homing.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The flags llm-d's endpoint picker takes, and its Helm chart passes, that mean nothing to Homing: accepted, so the
 * chart starts Homing's image unchanged, and named in one warning line, so nobody believes they took effect. Logging
 * is java.util.logging's (no zap encoder, no glog verbosity), there is no tracing, and the metrics port asks no
 * token; the metric-name flags would point the scraper at other model servers' metrics, which Homing does not read.
 */
final class LlmdIgnoredFlags {

    /** As given, in order: the flag and its value. */
    private final Map<String, String> given = new LinkedHashMap<>();

    @Option(names = "--zap-encoder", paramLabel = "ENC", hidden = true)
    void zapEncoder(String v) {
        remember("--zap-encoder", v, " ");
    }

    @Option(names = "--zap-log-level", paramLabel = "LEVEL", hidden = true)
    void zapLogLevel(String v) {
        remember("--zap-log-level", v, " ");
    }

    @Option(names = "--log-level", paramLabel = "LEVEL", hidden = true)
    void logLevel(String v) {
        remember("--log-level", v, " ");
    }

    @Option(names = {"-v", "--v"}, paramLabel = "N", hidden = true)
    void verbosity(String v) {
        remember("-v", v, " ");
    }

    @Option(names = "--tracing", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL", hidden = true)
    void tracing(String v) {
        remember("--tracing", v, "=");
    }

    @Option(names = "--metrics-endpoint-auth", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL",
            hidden = true)
    void metricsEndpointAuth(String v) {
        remember("--metrics-endpoint-auth", v, "=");
    }

    @Option(names = "--kv-cache-usage-percentage-metric", paramLabel = "METRIC", hidden = true)
    void kvCacheMetric(String v) {
        remember("--kv-cache-usage-percentage-metric", v, " ");
    }

    @Option(names = "--total-queued-requests-metric", paramLabel = "METRIC", hidden = true)
    void queuedMetric(String v) {
        remember("--total-queued-requests-metric", v, " ");
    }

    @Option(names = "--lora-info-metric", paramLabel = "METRIC", hidden = true)
    void loraMetric(String v) {
        remember("--lora-info-metric", v, " ");
    }

    private void remember(String flag, String value, String separator) {
        if (value != null) { // picocli may set an option not given to its (absent) default
            given.put(flag, flag + separator + (value.isEmpty() ? "\"\"" : value));
        }
    }

    /** The flags given, in order, as written back ({@code --zap-encoder json}). */
    List<String> names() {
        return List.copyOf(given.keySet());
    }

    /** The one warning line naming them, or null when none was given. */
    String warning() {
        if (given.isEmpty()) {
            return null;
        }
        return "homing serve: warning: ignoring llm-d flags Homing has no use for: "
                + String.join(", ", new ArrayList<>(given.values()));
    }
}
