package dev.homing.sim.http;

import dev.homing.protocol.metrics.VllmMetrics;
import dev.homing.sim.engine.EngineConfig;
import dev.homing.sim.engine.EngineStats;
import dev.homing.sim.engine.FinishReason;
import dev.homing.sim.engine.RequestObserver;
import dev.homing.sim.engine.Usage;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The pod's {@code /metrics}, named and labelled as vLLM's ({@code vllm/v1/metrics/loggers.py}): every series carries
 * {@code model_name} and {@code engine="0"}, except {@code vllm:cache_config_info}, which like vLLM's carries the
 * cache settings and {@code engine}. Gauges and counters are read from the engine at scrape time; the latency
 * histograms are observed per request on the engine's model clock, with vLLM's bucket boundaries.
 */
final class PodMetrics {

    private static final String ENGINE = "0";
    private static final double[] TTFT_BUCKETS = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75,
        1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
    private static final double[] ITL_BUCKETS = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0,
        2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0};
    private static final double[] REQUEST_LATENCY_BUCKETS = {0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0,
        20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    private final Supplier<EngineStats> statsSource;
    private final String modelName;
    private volatile EngineStats stats;
    private final DistributionDataPoint ttft;
    private final DistributionDataPoint itl;
    private final DistributionDataPoint e2e;

    PodMetrics(String modelName, EngineConfig engine, Supplier<EngineStats> statsSource) {
        this.modelName = modelName;
        this.statsSource = statsSource;
        this.stats = statsSource.get();
        gauge(VllmMetrics.NUM_REQUESTS_RUNNING, "Number of requests in model execution batches.", s -> s.running());
        gauge(VllmMetrics.NUM_REQUESTS_WAITING, "Number of requests waiting to be processed.", s -> s.waiting());
        GaugeWithCallback.builder().name(VllmMetrics.KV_CACHE_USAGE_PERC)
                .help("KV-cache usage. 1 means 100 percent usage.")
                .labelNames(VllmMetrics.LABEL_MODEL_NAME, VllmMetrics.LABEL_ENGINE)
                .callback(cb -> cb.call(stats.kvCacheUsage(), modelName, ENGINE))
                .register(registry);
        counter(VllmMetrics.PREFIX_CACHE_QUERIES, "Prefix cache queries, in terms of number of queried tokens.",
                EngineStats::prefixCacheQueries);
        counter(VllmMetrics.PREFIX_CACHE_HITS, "Prefix cache hits, in terms of number of cached tokens.",
                EngineStats::prefixCacheHits);
        counter(VllmMetrics.NUM_PREEMPTIONS, "Cumulative number of preemption from the engine.",
                EngineStats::preemptions);
        counter(VllmMetrics.PROMPT_TOKENS, "Number of prefill tokens processed.", EngineStats::promptTokens);
        counter(VllmMetrics.GENERATION_TOKENS, "Number of generation tokens processed.", EngineStats::generationTokens);
        CounterWithCallback.builder().name(VllmMetrics.REQUEST_SUCCESS)
                .help("Count of successfully processed requests.")
                .labelNames(VllmMetrics.LABEL_MODEL_NAME, VllmMetrics.LABEL_ENGINE, VllmMetrics.LABEL_FINISHED_REASON)
                .callback(cb -> {
                    for (FinishReason r : FinishReason.values()) {
                        cb.call(stats.finished(r), modelName, ENGINE, r.wireName());
                    }
                })
                .register(registry);
        Gauge.builder().name(VllmMetrics.CACHE_CONFIG_INFO).help("Information of the LLMEngine CacheConfig")
                .labelNames("block_size", "cache_dtype", "enable_prefix_caching", "engine", "gpu_memory_utilization",
                        "num_cpu_blocks", "num_gpu_blocks", "num_gpu_blocks_override", "prefix_caching_hash_algo")
                .register(registry)
                .labelValues(Integer.toString(engine.blockSize()), "auto", "True", ENGINE, "0.9", "None",
                        Integer.toString(engine.numGpuBlocks()), "None", "sha256_cbor")
                .set(1);
        ttft = histogram(VllmMetrics.TIME_TO_FIRST_TOKEN, "Histogram of time to first token in seconds.",
                TTFT_BUCKETS);
        itl = histogram(VllmMetrics.INTER_TOKEN_LATENCY, "Histogram of inter-token latency in seconds.", ITL_BUCKETS);
        e2e = histogram(VllmMetrics.E2E_REQUEST_LATENCY, "Histogram of e2e request latency in seconds.",
                REQUEST_LATENCY_BUCKETS);
    }

    /** Wraps a request's observer to time it from {@code submitNanos} on the engine's clock. */
    RequestObserver observe(RequestObserver inner, long submitNanos) {
        return new RequestObserver() {
            private long previous = Long.MIN_VALUE;

            @Override
            public void onFirstToken(long nanos) {
                ttft.observe(seconds(nanos - submitNanos));
                inner.onFirstToken(nanos);
            }

            @Override
            public void onToken(int tokenId, boolean last, long nanos) {
                if (previous != Long.MIN_VALUE) {
                    itl.observe(seconds(nanos - previous));
                }
                previous = nanos;
                inner.onToken(tokenId, last, nanos);
            }

            @Override
            public void onFinish(FinishReason reason, Usage usage, long nanos) {
                e2e.observe(seconds(nanos - submitNanos));
                inner.onFinish(reason, usage, nanos);
            }
        };
    }

    /** The Prometheus text exposition, with the engine read once for all gauges and counters. */
    byte[] scrape() {
        stats = statsSource.get();
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 << 10);
        try {
            writer.write(out, registry.scrape());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static String contentType() {
        return PrometheusTextFormatWriter.CONTENT_TYPE;
    }

    private void gauge(String name, String help, ToDoubleFunction<EngineStats> value) {
        GaugeWithCallback.builder().name(name).help(help)
                .labelNames(VllmMetrics.LABEL_MODEL_NAME, VllmMetrics.LABEL_ENGINE)
                .callback(cb -> cb.call(value.applyAsDouble(stats), modelName, ENGINE))
                .register(registry);
    }

    private void counter(String name, String help, ToLongFunction<EngineStats> value) {
        CounterWithCallback.builder().name(name).help(help)
                .labelNames(VllmMetrics.LABEL_MODEL_NAME, VllmMetrics.LABEL_ENGINE)
                .callback(cb -> cb.call(value.applyAsLong(stats), modelName, ENGINE))
                .register(registry);
    }

    private DistributionDataPoint histogram(String name, String help, double[] buckets) {
        return Histogram.builder().name(name).help(help)
                .labelNames(VllmMetrics.LABEL_MODEL_NAME, VllmMetrics.LABEL_ENGINE)
                .classicOnly().classicUpperBounds(buckets)
                .register(registry)
                .labelValues(modelName, ENGINE);
    }

    private static double seconds(long nanos) {
        return Math.max(0, nanos) / 1e9;
    }
}
