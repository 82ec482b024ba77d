package dev.homing.sim.http;

import dev.homing.protocol.metrics.VllmMetrics;
import dev.homing.sim.engine.EngineConfig;
import dev.homing.sim.engine.EngineStats;
import dev.homing.sim.engine.FinishReason;
import dev.homing.sim.engine.RequestObserver;
import dev.homing.sim.engine.StepObserver;
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
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The pod's {@code /metrics}, named, typed, labelled and bucketed as vLLM's ({@code vllm/v1/metrics/loggers.py}):
 * every series carries {@code model_name} and {@code engine="0"}, except {@code vllm:cache_config_info} (the cache
 * settings as labels, and {@code engine}) and {@code vllm:lora_requests_info} (only with LoRA enabled; its value is the
 * scrape's wall-clock time, as vLLM's {@code set_to_current_time}). Gauges and counters are read from the engine at
 * scrape time; the per-request histograms are observed on the engine's model clock as requests progress.
 */
final class PodMetrics {

    private static final String ENGINE = "0";
    private static final double[] TTFT_BUCKETS = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75,
        1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
    private static final double[] ITL_BUCKETS = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0,
        2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0};
    private static final double[] REQUEST_LATENCY_BUCKETS = {0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0,
        20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};
    private static final double[] ITERATION_TOKEN_BUCKETS = {1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096,
        8192, 16384};
    private static final double[] N_BUCKETS = {1, 2, 5, 10, 20};

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    private final Supplier<EngineStats> statsSource;
    private final String modelName;
    private volatile EngineStats stats;
    private final DistributionDataPoint ttft;
    private final DistributionDataPoint tpot;
    private final DistributionDataPoint itl;
    private final DistributionDataPoint requestTpot;
    private final DistributionDataPoint e2e;
    private final DistributionDataPoint queue;
    private final DistributionDataPoint inference;
    private final DistributionDataPoint prefill;
    private final DistributionDataPoint decode;
    private final DistributionDataPoint promptTokens;
    private final DistributionDataPoint generationTokens;
    private final DistributionDataPoint maxTokensParam;
    private final DistributionDataPoint maxGenerationTokens;
    private final DistributionDataPoint nParam;
    private final DistributionDataPoint iterationTokens;

    /**
     * @param cacheConfig vLLM's {@code CacheConfig} fields as label values, in its declaration order
     * @param statsSource read once per scrape
     */
    PodMetrics(String modelName, EngineConfig engine, Map<String, String> cacheConfig, Clock wallClock,
            Supplier<EngineStats> statsSource) {
        this.modelName = modelName;
        this.statsSource = statsSource;
        gauge(VllmMetrics.NUM_REQUESTS_RUNNING, "Number of requests in model execution batches.", s -> s.running());
        gauge(VllmMetrics.NUM_REQUESTS_WAITING, "Number of requests waiting to be processed.", s -> s.waiting());
        gauge(VllmMetrics.KV_CACHE_USAGE_PERC, "KV-cache usage. 1 means 100 percent usage.",
                EngineStats::kvCacheUsage);
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
        Map<String, String> labels = new LinkedHashMap<>(cacheConfig);
        labels.put(VllmMetrics.LABEL_ENGINE, ENGINE);
        Gauge.builder().name(VllmMetrics.CACHE_CONFIG_INFO).help("Information of the LLMEngine CacheConfig")
                .labelNames(labels.keySet().toArray(String[]::new))
                .register(registry)
                .labelValues(labels.values().toArray(String[]::new))
                .set(1);
        if (engine.maxLoras() > 0) {
            String maxLoras = Integer.toString(engine.maxLoras());
            GaugeWithCallback.builder().name(VllmMetrics.LORA_REQUESTS_INFO).help("Running stats on lora requests.")
                    .labelNames("max_lora", "waiting_lora_adapters", "running_lora_adapters")
                    .callback(cb -> {
                        Instant now = wallClock.instant();
                        cb.call(now.getEpochSecond() + now.getNano() / 1e9, maxLoras,
                                String.join(",", stats.waitingLoras()), String.join(",", stats.runningLoras()));
                    })
                    .register(registry);
        }
        double[] tokenBuckets = oneTwoFive(engine.maxModelLen());
        ttft = histogram(VllmMetrics.TIME_TO_FIRST_TOKEN, "Histogram of time to first token in seconds.",
                TTFT_BUCKETS);
        tpot = histogram(VllmMetrics.TIME_PER_OUTPUT_TOKEN, "Histogram of time per output token in seconds.",
                ITL_BUCKETS);
        itl = histogram(VllmMetrics.INTER_TOKEN_LATENCY, "Histogram of inter-token latency in seconds.", ITL_BUCKETS);
        requestTpot = histogram(VllmMetrics.REQUEST_TIME_PER_OUTPUT_TOKEN,
                "Histogram of time_per_output_token_seconds per request.", ITL_BUCKETS);
        e2e = histogram(VllmMetrics.E2E_REQUEST_LATENCY, "Histogram of e2e request latency in seconds.",
                REQUEST_LATENCY_BUCKETS);
        queue = histogram(VllmMetrics.REQUEST_QUEUE_TIME, "Histogram of time spent in WAITING phase for request.",
                REQUEST_LATENCY_BUCKETS);
        inference = histogram(VllmMetrics.REQUEST_INFERENCE_TIME,
                "Histogram of time spent in RUNNING phase for request.", REQUEST_LATENCY_BUCKETS);
        prefill = histogram(VllmMetrics.REQUEST_PREFILL_TIME, "Histogram of time spent in PREFILL phase for request.",
                REQUEST_LATENCY_BUCKETS);
        decode = histogram(VllmMetrics.REQUEST_DECODE_TIME, "Histogram of time spent in DECODE phase for request.",
                REQUEST_LATENCY_BUCKETS);
        promptTokens = histogram(VllmMetrics.REQUEST_PROMPT_TOKENS, "Number of prefill tokens processed.",
                tokenBuckets);
        generationTokens = histogram(VllmMetrics.REQUEST_GENERATION_TOKENS, "Number of generation tokens processed.",
                tokenBuckets);
        maxTokensParam = histogram(VllmMetrics.REQUEST_PARAMS_MAX_TOKENS,
                "Histogram of the max_tokens request parameter.", tokenBuckets);
        maxGenerationTokens = histogram(VllmMetrics.REQUEST_MAX_NUM_GENERATION_TOKENS,
                "Histogram of maximum number of requested generation tokens.", tokenBuckets);
        nParam = histogram(VllmMetrics.REQUEST_PARAMS_N, "Histogram of the n request parameter.", N_BUCKETS);
        iterationTokens = histogram(VllmMetrics.ITERATION_TOKENS, "Histogram of number of tokens per engine_step.",
                ITERATION_TOKEN_BUCKETS);
    }

    /** vLLM's {@code build_1_2_5_buckets}: 1, 2, 5, 10, 20, 50, ... up to {@code max}. */
    static double[] oneTwoFive(int max) {
        List<Double> out = new ArrayList<>();
        for (long exp = 1; ; exp *= 10) {
            for (int m : new int[] {1, 2, 5}) {
                long v = m * exp;
                if (v > max) {
                    return out.stream().mapToDouble(Double::doubleValue).toArray();
                }
                out.add((double) v);
            }
        }
    }

    /** Observes every engine step's token count ({@code vllm:iteration_tokens_total}). */
    StepObserver steps() {
        return (start, end, tokens, running) -> iterationTokens.observe(tokens);
    }

    /** The choices of one HTTP request with {@code n} choices, as vLLM's parent request counts them. */
    Choices choices(int n) {
        return new Choices(n);
    }

    /**
     * Wraps one engine request's observer to time it from {@code submitNanos} on the engine's clock.
     *
     * @param maxTokens the request's {@code max_tokens} as the engine got it
     * @param parent the choices of the HTTP request it belongs to
     */
    RequestObserver observe(RequestObserver inner, long submitNanos, int maxTokens, Choices parent) {
        return new RequestObserver() {
            private long scheduled = Long.MIN_VALUE;
            private long first = Long.MIN_VALUE;
            private long previous = Long.MIN_VALUE;

            @Override
            public void onQueued(long nanos) {
                inner.onQueued(nanos);
            }

            @Override
            public void onScheduled(long nanos) {
                scheduled = nanos;
                queue.observe(seconds(nanos - submitNanos));
                inner.onScheduled(nanos);
            }

            @Override
            public void onFirstToken(long nanos) {
                first = nanos;
                ttft.observe(seconds(nanos - submitNanos));
                if (scheduled != Long.MIN_VALUE) {
                    prefill.observe(seconds(nanos - scheduled));
                }
                inner.onFirstToken(nanos);
            }

            @Override
            public void onToken(int tokenId, boolean last, long nanos) {
                if (previous != Long.MIN_VALUE) {
                    double gap = seconds(nanos - previous);
                    itl.observe(gap);
                    tpot.observe(gap);
                }
                previous = nanos;
                inner.onToken(tokenId, last, nanos);
            }

            @Override
            public void onFinish(FinishReason reason, Usage usage, long nanos) {
                e2e.observe(seconds(nanos - submitNanos));
                if (scheduled != Long.MIN_VALUE) {
                    inference.observe(seconds(nanos - scheduled));
                }
                if (first != Long.MIN_VALUE) {
                    decode.observe(seconds(nanos - first));
                    if (usage.completionTokens() > 1) {
                        requestTpot.observe(seconds(nanos - first) / (usage.completionTokens() - 1));
                    }
                }
                promptTokens.observe(usage.promptTokens());
                generationTokens.observe(usage.completionTokens());
                maxTokensParam.observe(maxTokens);
                parent.finished(usage.completionTokens());
                inner.onFinish(reason, usage, nanos);
            }
        };
    }

    /**
     * vLLM observes {@code n} and the longest answer once per HTTP request, when the last of its choices ends
     * (its {@code ParentRequest}); every other per-request series is observed per choice.
     */
    final class Choices {
        private final int n;
        private int unfinished;
        private int longest;

        private Choices(int n) {
            this.n = n;
            this.unfinished = n;
        }

        private synchronized void finished(int generated) {
            longest = Math.max(longest, generated);
            if (--unfinished == 0) {
                maxGenerationTokens.observe(longest);
                nParam.observe(n);
            }
        }
    }

    /** The Prometheus text exposition, with the engine read once for all gauges and counters. */
    byte[] scrape() {
        stats = statsSource.get();
        ByteArrayOutputStream out = new ByteArrayOutputStream(32 << 10);
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
