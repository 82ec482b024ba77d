package dev.homing.router.metrics;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.plugins.prefix.approx.ApproxPrefixCacheProducer;
import dev.homing.core.precise.KvEventFeed;
import dev.homing.router.config.PolicySource;
import dev.homing.router.precise.events.KvEventsObserver;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.function.Supplier;

/**
 * The router's own metrics under llm-d's names ({@code inference_objective_*}, {@code inference_pool_*},
 * {@code inference_extension_*}), so dashboards built for llm-d's endpoint picker keep working, plus
 * {@code homing_*} for what llm-d does not export, such as the KV-event subscribers' {@code homing_kv_events_*}.
 */
public final class RouterMetrics implements KvEventsObserver {

    private static final double[] LATENCY_BUCKETS = {0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3,
            4, 5, 6, 8, 10, 15, 20, 30, 45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600};
    private static final double[] TOKEN_BUCKETS = {1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384,
            32778, 65536, 131072, 262144, 524288, 1048576};
    private static final double[] SCHEDULER_BUCKETS = {0.00001, 0.00002, 0.00005, 0.0001, 0.0002, 0.0005, 0.001,
            0.002, 0.005, 0.01, 0.02, 0.05, 0.1};

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    private final String poolName;

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
    private final Counter scrapeErrors;
    private final Counter retries;
    private final Counter configReloads;
    private final Counter kvBatches;
    private final Counter kvApplied;
    private final Counter kvSkipped;
    private final Counter kvGaps;
    private final Counter kvLost;
    private final Counter kvReplays;
    private final Counter kvRestarts;
    private final Counter kvMalformed;
    private final Counter kvUnknownPods;

    /**
     * @param preciseProducers the running config's precise producers, whose index sizes are reported
     * @param saturation       the configured saturation detector's pool saturation, or NaN without one
     */
    public RouterMetrics(String poolName, EndpointPool pool, Supplier<List<ApproxPrefixCacheProducer>> prefixProducers,
                         Supplier<List<KvEventFeed>> preciseProducers,
                         java.util.function.DoubleSupplier saturation) {
        this.poolName = poolName;
        requests = Counter.builder().name("inference_objective_request_total")
                .help("Counter of inference objective requests broken out for each model and target model.")
                .labelNames("model_name", "target_model_name").register(registry);
        errors = Counter.builder().name("inference_objective_request_error_total")
                .help("Counter of inference objective requests errors broken out for each model and target model.")
                .labelNames("model_name", "target_model_name", "error_code").register(registry);
        duration = histogram("inference_objective_request_duration_seconds",
                "Inference objective response latency distribution in seconds.", LATENCY_BUCKETS);
        ttft = histogram("inference_objective_request_ttft_seconds",
                "Inference objective time to first token distribution in seconds (streaming requests).", LATENCY_BUCKETS);
        inputTokens = histogram("inference_objective_input_tokens",
                "Inference objective input token count distribution.", TOKEN_BUCKETS);
        outputTokens = histogram("inference_objective_output_tokens",
                "Inference objective output token count distribution.", TOKEN_BUCKETS);
        cachedTokens = histogram("inference_objective_prompt_cached_tokens",
                "Inference objective prompt cached token count distribution.", TOKEN_BUCKETS);
        running = Gauge.builder().name("inference_objective_running_requests")
                .help("Inference objective number of running requests in each model.")
                .labelNames("model_name").register(registry);
        schedulerDuration = Histogram.builder().name("inference_extension_scheduler_e2e_duration_seconds")
                .help("End-to-end scheduling latency distribution in seconds.")
                .classicUpperBounds(SCHEDULER_BUCKETS).classicOnly().register(registry);
        schedulerAttempts = Counter.builder().name("inference_extension_scheduler_attempts_total")
                .help("Number of scheduling attempts by outcome.").labelNames("status").register(registry);
        scrapeErrors = Counter.builder().name("homing_scrape_errors_total")
                .help("Failed scrapes of an endpoint's /metrics.").labelNames("pod").register(registry);
        retries = Counter.builder().name("homing_upstream_retries_total")
                .help("Requests sent to another endpoint because the first could not be reached.")
                .labelNames("pod").register(registry);

        configReloads = Counter.builder().name("homing_config_reloads_total")
                .help("Config file changes seen, by outcome: applied, or refused (the running config stayed).")
                .labelNames("result").register(registry);
        kvBatches = Counter.builder().name("homing_kv_events_batches_total")
                .help("KV-event batches taken in sequence from a pod's publisher, live or replayed.")
                .labelNames("pod").register(registry);
        kvApplied = Counter.builder().name("homing_kv_events_applied_total")
                .help("KV-cache events applied to the precise index.").labelNames("pod").register(registry);
        kvSkipped = Counter.builder().name("homing_kv_events_skipped_total")
                .help("KV-cache events left out: unknown_type (a newer engine's), unresolved (parent block never seen, "
                        + "other block size).").labelNames("reason").register(registry);
        kvGaps = Counter.builder().name("homing_kv_events_gaps_total")
                .help("Jumps in a publisher's sequence numbers on the live stream.").labelNames("pod").register(registry);
        kvLost = Counter.builder().name("homing_kv_events_batches_lost_total")
                .help("Batches missing from a publisher's sequence that no replay recovered; each loss drops the pod's "
                        + "index entries, rebuilt from its next events.").labelNames("pod").register(registry);
        kvReplays = Counter.builder().name("homing_kv_events_replays_total")
                .help("Replays asked of a pod's replay socket, by outcome: complete (end marker reached) or failed.")
                .labelNames("pod", "result").register(registry);
        kvRestarts = Counter.builder().name("homing_kv_events_restarts_total")
                .help("Publishers whose sequence went back (the engine restarted); the pod's entries were dropped.")
                .labelNames("pod").register(registry);
        kvMalformed = Counter.builder().name("homing_kv_events_malformed_total")
                .help("Messages that are not KV-event batches (frames, sequence or payload), skipped; pod empty when "
                        + "unknown.").labelNames("pod").register(registry);
        kvUnknownPods = Counter.builder().name("homing_kv_events_unknown_pod_total")
                .help("Messages at a centralized endpoint whose topic names no endpoint of the pool, dropped.")
                .register(registry);
        GaugeWithCallback.builder().name("homing_precise_index_size")
                .help("Entries of a precise producer's index: (pod, block, tier) holdings.").labelNames("producer")
                .callback(cb -> preciseProducers.get().forEach(p -> cb.call(p.index().size(), p.name())))
                .register(registry);
        GaugeWithCallback.builder().name("inference_pool_ready_pods")
                .help("The number of ready pods in the inference server pool.").labelNames("name")
                .callback(cb -> cb.call(ready(pool), poolName)).register(registry);
        GaugeWithCallback.builder().name("inference_pool_average_queue_size")
                .help("The average number of requests pending in the model server queue.").labelNames("name")
                .callback(cb -> cb.call(average(pool, EndpointState::waitingQueueSize), poolName)).register(registry);
        GaugeWithCallback.builder().name("inference_pool_average_kv_cache_utilization")
                .help("The average kv cache utilization for an inference server pool.").labelNames("name")
                .callback(cb -> cb.call(average(pool, EndpointState::kvCacheUsage), poolName)).register(registry);
        GaugeWithCallback.builder().name("inference_pool_per_pod_queue_size")
                .help("The total number of requests pending in the model server queue for each underlying pod.")
                .labelNames("name", "model_server_pod")
                .callback(cb -> pool.snapshot().endpoints().forEach(e -> cb.call(e.waitingQueueSize(), poolName, e.name())))
                .register(registry);
        GaugeWithCallback.builder().name("homing_endpoint_in_flight_requests")
                .help("Requests this router has sent to an endpoint that have not ended.").labelNames("pod")
                .callback(cb -> pool.snapshot().endpoints().forEach(e -> cb.call(e.load().inFlightRequests(), e.name())))
                .register(registry);
        GaugeWithCallback.builder().name("homing_endpoint_in_flight_tokens")
                .help("Estimated prompt plus output tokens of this router's requests in flight to an endpoint.")
                .labelNames("pod")
                .callback(cb -> pool.snapshot().endpoints().forEach(e -> cb.call(e.load().inFlightTokens(), e.name())))
                .register(registry);
        GaugeWithCallback.builder().name("homing_endpoint_pending_prefill_tokens")
                .help("Uncached prompt tokens of this router's requests that an endpoint has not answered yet.")
                .labelNames("pod")
                .callback(cb -> pool.snapshot().endpoints().forEach(e -> cb.call(e.pendingPrefillTokens(), e.name())))
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
        GaugeWithCallback.builder().name("inference_extension_info")
                .help("General information of the current build.").labelNames("commit", "build_ref")
                .callback(cb -> cb.call(1, "unknown", "homing")).register(registry);
    }

    private Histogram histogram(String name, String help, double[] buckets) {
        return Histogram.builder().name(name).help(help).labelNames("model_name", "target_model_name")
                .classicUpperBounds(buckets).classicOnly().register(registry);
    }

    private static double ready(EndpointPool pool) {
        return pool.snapshot().endpoints().stream().filter(e -> e.metrics().known()).count();
    }

    private static double average(EndpointPool pool, java.util.function.ToDoubleFunction<EndpointState> f) {
        List<EndpointState> all = pool.snapshot().endpoints();
        return all.isEmpty() ? 0 : all.stream().mapToDouble(f).average().orElse(0);
    }

    public void requestStarted(String model, String target) {
        requests.labelValues(model, target).inc();
        running.labelValues(model).inc();
    }

    public void requestEnded(String model, String target, int status, double seconds, long prompt, long completion,
                             long cached) {
        running.labelValues(model).dec();
        duration.labelValues(model, target).observe(seconds);
        if (status >= 400 || status == 0) {
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
        errors.labelValues(model, model, Integer.toString(status)).inc();
    }

    public void firstToken(String model, String target, double seconds) {
        ttft.labelValues(model, target).observe(seconds);
    }

    public void scheduled(boolean ok, double seconds) {
        schedulerAttempts.labelValues(ok ? "success" : "failure").inc();
        schedulerDuration.observe(seconds);
    }

    public void scraped(Endpoint endpoint, boolean ok) {
        if (!ok) {
            scrapeErrors.labelValues(endpoint.name()).inc();
        }
    }

    public void configReloaded(PolicySource.Reload outcome) {
        if (outcome != PolicySource.Reload.UNCHANGED) {
            configReloads.labelValues(outcome == PolicySource.Reload.APPLIED ? "applied" : "refused").inc();
        }
    }

    public void retried(String pod) {
        retries.labelValues(pod).inc();
    }

    @Override
    public void batchTaken(String pod) {
        kvBatches.labelValues(pod).inc();
    }

    @Override
    public void eventsApplied(String pod, int events) {
        kvApplied.labelValues(pod).inc(events);
    }

    @Override
    public void eventsSkipped(String reason, int events) {
        kvSkipped.labelValues(reason).inc(events);
    }

    @Override
    public void gap(String pod, long missing) {
        kvGaps.labelValues(pod).inc();
    }

    @Override
    public void batchesLost(String pod, long batches) {
        kvLost.labelValues(pod).inc(batches);
    }

    @Override
    public void replay(String pod, boolean complete) {
        kvReplays.labelValues(pod, complete ? "complete" : "failed").inc();
    }

    @Override
    public void restart(String pod) {
        kvRestarts.labelValues(pod).inc();
    }

    @Override
    public void malformed(String pod) {
        kvMalformed.labelValues(pod).inc();
    }

    @Override
    public void unknownPod(String podId) {
        kvUnknownPods.inc();
    }

    // ---- Shared state for replicas (Redis): registered only when the router has a Redis ----

    /**
     * Registers the metrics of what this replica shares with the pool's other replicas through Redis.
     *
     * @param redisUp   whether Redis is reachable now
     * @param fallbacks operations that used this replica's local state only because Redis could not be used
     */
    public void sharedState(EndpointPool pool, java.util.function.BooleanSupplier redisUp,
                            java.util.function.LongSupplier fallbacks) {
        GaugeWithCallback.builder().name("homing_redis_up")
                .help("1 when the Redis shared by the router replicas is reachable, 0 while this replica runs on its "
                        + "local state.")
                .callback(cb -> cb.call(redisUp.getAsBoolean() ? 1 : 0)).register(registry);
        io.prometheus.metrics.core.metrics.CounterWithCallback.builder().name("homing_redis_fallbacks_total")
                .help("Index lookups and writes served by this replica's local state only, because Redis could not "
                        + "be reached or could not keep up.")
                .callback(cb -> cb.call(fallbacks.getAsLong())).register(registry);
        GaugeWithCallback.builder().name("homing_shared_inflight_requests")
                .help("Requests the other router replicas have in flight to an endpoint, as last read from Redis.")
                .labelNames("pod")
                .callback(cb -> pool.snapshot().endpoints().forEach(e -> cb.call(e.load().remoteInFlightRequests(),
                        e.name())))
                .register(registry);
    }

    public String contentType() {
        return writer.getContentType();
    }

    public void write(OutputStream out) throws IOException {
        writer.write(out, registry.scrape());
    }

    public String poolName() {
        return poolName;
    }
}
