package dev.homing.sim.http;

import dev.homing.protocol.openai.OpenAiError;
import dev.homing.sim.engine.Engine;
import dev.homing.sim.engine.EngineConfig;
import dev.homing.sim.engine.KvEventSink;
import dev.homing.sim.engine.RealTimeEngineDriver;
import dev.homing.sim.tokenizer.SimTokenizer;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * What a pod's handlers that run the engine share, made once by {@link SimPod#start}: the config, tokenizer and
 * served models, the engine's driver and the metrics it reports to, the pod's id generator and failure injector, and
 * whether the pod is closing (a handler waiting on the engine then gives up).
 */
record PodServices(SimPodConfig config, SimTokenizer tokenizer, ServedModels models, RealTimeEngineDriver driver,
        PodMetrics metrics, RequestIds ids, FailureInjector failures, BooleanSupplier closing) {

    /** Starts the pod's engine on the wall clock, its KV events to {@code events}. */
    static PodServices start(SimPodConfig config, KvEventSink events, BooleanSupplier closing) {
        SimTokenizer tokenizer = SimTokenizer.builtin();
        ServedModels models = new ServedModels(config.servedModelNames(), config.loraEnabled(), config.loraModules());
        AtomicReference<RealTimeEngineDriver> driverRef = new AtomicReference<>();
        PodMetrics metrics = new PodMetrics(config.modelName(), config.engine(), cacheConfig(config),
                config.wallClock(), () -> driverRef.get().stats());
        Engine engine = new Engine(config.engine(), events, metrics.steps(), new SplittableRandom(config.seed()));
        RealTimeEngineDriver driver = new RealTimeEngineDriver(engine, config.nanoTime(),
                "homing-sim-engine-" + config.podName()).start();
        driverRef.set(driver);
        FailureInjector failures = new FailureInjector(config.failureInjectionRate(), config.failureTypes(),
                config.modelName(), config.seed());
        return new PodServices(config, tokenizer, models, driver, metrics, new RequestIds(config.seed()), failures,
                closing);
    }

    /**
     * Answers a request its {@code X-Return-Error} header fails, before its body is read; true when it did (the
     * request is over).
     */
    boolean forcedFailure(ServerRequest req, ServerResponse res) {
        return sent(FailureInjector.forced(req), res);
    }

    /**
     * Answers a valid request with a failure drawn at the injection rate, every generating API at the same point:
     * once its body is validated and its model found, before any id is drawn for it; true when it did.
     */
    boolean drawnFailure(ServerResponse res) {
        return sent(failures.draw(), res);
    }

    /** The engine requests that will answer one HTTP request, submitted from now on. */
    EngineCalls calls() {
        return new EngineCalls(driver);
    }

    private static boolean sent(Optional<OpenAiError> failure, ServerResponse res) {
        failure.ifPresent(e -> SimPod.sendError(res, e));
        return failure.isPresent();
    }

    /** vLLM's {@code CacheConfig} as {@code vllm:cache_config_info} labels, in its field order. */
    private static Map<String, String> cacheConfig(SimPodConfig config) {
        EngineConfig e = config.engine();
        Map<String, String> m = new LinkedHashMap<>();
        m.put("block_size", Integer.toString(e.blockSize()));
        m.put("gpu_memory_utilization", "0.9");
        m.put("swap_space", "4");
        m.put("cache_dtype", "auto");
        m.put("is_attention_free", "False");
        m.put("num_gpu_blocks_override", config.numGpuBlocksOverride() == null ? "None"
                : Integer.toString(config.numGpuBlocksOverride()));
        m.put("sliding_window", "None");
        m.put("enable_prefix_caching", "True");
        m.put("prefix_caching_hash_algo", "sha256_cbor");
        m.put("cpu_offload_gb", "0");
        m.put("calculate_kv_scales", "False");
        m.put("num_gpu_blocks", Integer.toString(e.numGpuBlocks()));
        m.put("num_cpu_blocks", "None");
        return m;
    }
}
