package dev.homing.router.metrics;

import dev.homing.core.objective.RewriteDecision;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * What happened to the requests the proxy served: llm-d's {@code inference_objective_*} per model and target model,
 * its scheduler's {@code inference_extension_scheduler_*}, and the requests sent elsewhere because an endpoint could
 * not be reached.
 */
public final class RequestMetrics {

    private static final double[] LATENCY_BUCKETS = {0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3,
            4, 5, 6, 8, 10, 15, 20, 30, 45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600};
    private static final double[] TOKEN_BUCKETS = {1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384,
            32778, 65536, 131072, 262144, 524288, 1048576};
    private static final double[] SCHEDULER_BUCKETS = {0.00001, 0.00002, 0.00005, 0.0001, 0.0002, 0.0005, 0.001,
            0.002, 0.005, 0.01, 0.02, 0.05, 0.1};

    private final Counter requests;
    private final Counter errors;
    private final Histogram duration;
    private final Histogram ttft;
    private final Histogram inputTokens;
    private final Histogram outputTokens;
    private final Histogram cachedTokens;
    private final Gauge running;
    private final Histogram schedulerDuration;
    private final Counter schedulerAttempts;
    private final Counter retries;
    private final Counter rewrites;

    RequestMetrics(PrometheusRegistry registry) {
        requests = Counter.builder().name("inference_objective_request_total")
                .help("Counter of inference objective requests broken out for each model and target model.")
                .labelNames("model_name", "target_model_name").register(registry);
        errors = Counter.builder().name("inference_objective_request_error_total")
                .help("Counter of inference objective requests errors broken out for each model and target model.")
                .labelNames("model_name", "target_model_name", "error_code").register(registry);
        duration = histogram(registry, "inference_objective_request_duration_seconds",
                "Inference objective response latency distribution in seconds.", LATENCY_BUCKETS);
        ttft = histogram(registry, "inference_objective_request_ttft_seconds",
                "Inference objective time to first token distribution in seconds (streaming requests).", LATENCY_BUCKETS);
        inputTokens = histogram(registry, "inference_objective_input_tokens",
                "Inference objective input token count distribution.", TOKEN_BUCKETS);
        outputTokens = histogram(registry, "inference_objective_output_tokens",
                "Inference objective output token count distribution.", TOKEN_BUCKETS);
        cachedTokens = histogram(registry, "inference_objective_prompt_cached_tokens",
                "Inference objective prompt cached token count distribution.", TOKEN_BUCKETS);
        running = Gauge.builder().name("inference_objective_running_requests")
                .help("Inference objective number of running requests in each model.")
                .labelNames("model_name").register(registry);
        schedulerDuration = Histogram.builder().name("inference_extension_scheduler_e2e_duration_seconds")
                .help("End-to-end scheduling latency distribution in seconds.")
                .classicUpperBounds(SCHEDULER_BUCKETS).classicOnly().register(registry);
        schedulerAttempts = Counter.builder().name("inference_extension_scheduler_attempts_total")
                .help("Number of scheduling attempts by outcome.").labelNames("status").register(registry);
        rewrites = Counter.builder().name("inference_extension_model_rewrite_decisions_total")
                .help("Total number of inference model rewrite decisions.")
                .labelNames("model_rewrite_name", "model_name", "target_model").register(registry);
        retries = Counter.builder().name("homing_upstream_retries_total")
                .help("Requests sent to another endpoint because the first could not be reached.")
                .labelNames("pod").register(registry);
    }

    private static Histogram histogram(PrometheusRegistry registry, String name, String help, double[] buckets) {
        return Histogram.builder().name(name).help(help).labelNames("model_name", "target_model_name")
                .classicUpperBounds(buckets).classicOnly().register(registry);
    }

    /** Model names as labels: a request naming none (a passthrough path) is counted under the empty name. */
    private static String label(String model) {
        return model == null ? "" : model;
    }

    public void requestStarted(String model, String target) {
        requests.labelValues(label(model), label(target)).inc();
        running.labelValues(label(model)).inc();
    }

    public void requestEnded(String modelName, String targetName, int status, double seconds, long prompt,
                             long completion, long cached) {
        String model = label(modelName);
        String target = label(targetName);
        running.labelValues(model).dec();
        duration.labelValues(model, target).observe(seconds);
        if (status >= 400 || status == 0) { // -1: the response was never seen (a gateway that does not report it)
            errors.labelValues(model, target, status == 0 ? "none" : Integer.toString(status)).inc();
        }
        if (prompt >= 0) {
            inputTokens.labelValues(model, target).observe(prompt);
        }
        if (completion >= 0) {
            outputTokens.labelValues(model, target).observe(completion);
        }
        if (cached >= 0) {
            cachedTokens.labelValues(model, target).observe(cached);
        }
    }

    /** A request refused before it reached an endpoint. */
    public void rejected(String model, int status) {
        errors.labelValues(label(model), label(model), Integer.toString(status)).inc();
    }

    public void firstToken(String model, String target, double seconds) {
        ttft.labelValues(label(model), label(target)).observe(seconds);
    }

    public void scheduled(boolean ok, double seconds) {
        schedulerAttempts.labelValues(ok ? "success" : "failure").inc();
        schedulerDuration.observe(seconds);
    }

    /** Drops a pod's series once it left the pool: pods come and go, their series must not pile up. */
    void forget(String pod) {
        retries.remove(pod);
    }

    public void retried(String pod) {
        retries.labelValues(pod).inc();
    }

    /** An InferenceModelRewrite rule decided a request's model (llm-d counts rule decisions, not the header's). */
    public void rewriteDecision(RewriteDecision d) {
        rewrites.labelValues(d.rewriteName(), d.model(), d.target()).inc();
    }
}
