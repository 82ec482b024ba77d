package dev.homing.sim.http;

import dev.homing.sim.engine.EngineConfig;
import dev.homing.sim.engine.Preset;
import dev.homing.sim.kvevents.KvEventsConfig;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Everything a simulated vLLM pod needs. Build with {@link #builder()}; defaults are the {@code cpu-qwen2.5-0.5b}
 * preset on an ephemeral port of 127.0.0.1.
 *
 * @param host interface to bind (default 127.0.0.1)
 * @param port TCP port; 0 picks a free one (see {@link SimPod#port()})
 * @param podName sent as {@code x-inference-pod} on every response, as llm-d-inference-sim does
 * @param model the {@code --model} path, reported as {@code root} by {@code /v1/models}
 * @param servedModelNames names clients may ask for; the first is the {@code model_name} metric label
 * @param seed seeds the engine's generator: outputs, noise and (without a hash seed) block hashes
 * @param engine the engine's shape; LoRA is enabled when its {@code maxLoras} is positive
 * @param numGpuBlocksOverride what {@code --num-gpu-blocks-override} said, for {@code vllm:cache_config_info}; null
 * @param enablePromptTokensDetails report {@code usage.prompt_tokens_details.cached_tokens} when some tokens were
 *     cached (vLLM's flag, off by default there; on by default here, so tests and the demo see cache hits)
 * @param eosProbability in random mode, the chance per output token of ending (unless {@code ignore_eos})
 * @param maxRequestBodyBytes larger bodies get 413
 * @param kvEvents vLLM's {@code --kv-events-config}, and the event layout
 * @param loraModules adapters loaded at start ({@code --lora-modules})
 * @param failureInjectionRate percent of generation requests that fail on purpose (llm-d-inference-sim)
 * @param failureTypes what they fail with; empty for all types
 * @param responsesStoreCapacity most Responses API responses kept for {@code previous_response_id} and
 *     {@code GET /v1/responses/{id}}, the least recently used dropped first; 0 stores none, as vLLM without
 *     {@code VLLM_ENABLE_RESPONSES_API_STORE} (which silently ignores {@code store}). vLLM's store, when on, has no
 *     bound; the sim's keeps 10,000 by default.
 * @param wallClock for {@code created} timestamps
 * @param nanoTime the engine's clock
 */
public record SimPodConfig(
        String host,
        int port,
        String podName,
        String model,
        List<String> servedModelNames,
        EngineConfig engine,
        Integer numGpuBlocksOverride,
        long seed,
        OutputMode mode,
        boolean enablePromptTokensDetails,
        double eosProbability,
        int maxRequestBodyBytes,
        KvEventsConfig kvEvents,
        List<LoraModule> loraModules,
        int failureInjectionRate,
        List<FailureType> failureTypes,
        int responsesStoreCapacity,
        Clock wallClock,
        LongSupplier nanoTime) {

    public SimPodConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(podName, "podName");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(wallClock, "wallClock");
        Objects.requireNonNull(nanoTime, "nanoTime");
        Objects.requireNonNull(kvEvents, "kvEvents");
        loraModules = loraModules == null ? List.of() : List.copyOf(loraModules);
        failureTypes = failureTypes == null ? List.of() : List.copyOf(failureTypes);
        if (failureInjectionRate < 0 || failureInjectionRate > 100) {
            throw new IllegalArgumentException("failureInjectionRate must be 0..100, got " + failureInjectionRate);
        }
        if (!loraModules.isEmpty() && engine.maxLoras() == 0) {
            throw new IllegalArgumentException("LoRA modules need LoRA enabled (maxLoras > 0)");
        }
        servedModelNames = servedModelNames == null || servedModelNames.isEmpty()
                ? List.of(model) : List.copyOf(servedModelNames);
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0..65535, got " + port);
        }
        if (!(eosProbability >= 0 && eosProbability <= 1)) {
            throw new IllegalArgumentException("eosProbability must be in [0, 1], got " + eosProbability);
        }
        if (maxRequestBodyBytes < 1) {
            throw new IllegalArgumentException("maxRequestBodyBytes must be positive");
        }
        if (responsesStoreCapacity < 0) {
            throw new IllegalArgumentException("responsesStoreCapacity must be >= 0, got " + responsesStoreCapacity);
        }
    }

    public boolean loraEnabled() {
        return engine.maxLoras() > 0;
    }

    /** The {@code model_name} label: the first served name. */
    public String modelName() {
        return servedModelNames.getFirst();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.host = host;
        b.port = port;
        b.podName = podName;
        b.model = model;
        b.servedModelNames = servedModelNames;
        b.engine = engine;
        b.numGpuBlocksOverride = numGpuBlocksOverride;
        b.seed = seed;
        b.mode = mode;
        b.enablePromptTokensDetails = enablePromptTokensDetails;
        b.eosProbability = eosProbability;
        b.maxRequestBodyBytes = maxRequestBodyBytes;
        b.kvEvents = kvEvents;
        b.loraModules = loraModules;
        b.failureInjectionRate = failureInjectionRate;
        b.failureTypes = failureTypes;
        b.responsesStoreCapacity = responsesStoreCapacity;
        b.wallClock = wallClock;
        b.nanoTime = nanoTime;
        return b;
    }

    public static final class Builder {
        private String host = "127.0.0.1";
        private int port;
        private String podName = "homing-sim";
        private String model = Preset.CPU_QWEN2_5_0_5B.modelName();
        private List<String> servedModelNames = List.of();
        private EngineConfig engine = Preset.CPU_QWEN2_5_0_5B.engine();
        private Integer numGpuBlocksOverride;
        private long seed;
        private OutputMode mode = OutputMode.RANDOM;
        private boolean enablePromptTokensDetails = true;
        private double eosProbability = 0.02;
        private int maxRequestBodyBytes = 16 << 20;
        private KvEventsConfig kvEvents = KvEventsConfig.disabled();
        private List<LoraModule> loraModules = List.of();
        private int failureInjectionRate;
        private List<FailureType> failureTypes = List.of();
        private int responsesStoreCapacity = 10_000;
        private Clock wallClock = Clock.systemUTC();
        private LongSupplier nanoTime = System::nanoTime;

        private Builder() {
        }

        /** Takes the preset's engine and model name. */
        public Builder preset(Preset preset) {
            this.engine = preset.engine();
            this.model = preset.modelName();
            return this;
        }

        public Builder host(String v) {
            host = v;
            return this;
        }

        public Builder port(int v) {
            port = v;
            return this;
        }

        public Builder podName(String v) {
            podName = v;
            return this;
        }

        public Builder model(String v) {
            model = v;
            return this;
        }

        public Builder servedModelNames(List<String> v) {
            servedModelNames = v;
            return this;
        }

        public Builder engine(EngineConfig v) {
            engine = v;
            return this;
        }

        public Builder numGpuBlocksOverride(Integer v) {
            numGpuBlocksOverride = v;
            return this;
        }

        public Builder kvEvents(KvEventsConfig v) {
            kvEvents = v;
            return this;
        }

        public Builder loraModules(List<LoraModule> v) {
            loraModules = v;
            return this;
        }

        public Builder failureInjectionRate(int v) {
            failureInjectionRate = v;
            return this;
        }

        public Builder failureTypes(List<FailureType> v) {
            failureTypes = v;
            return this;
        }

        public Builder seed(long v) {
            seed = v;
            return this;
        }

        public Builder mode(OutputMode v) {
            mode = v;
            return this;
        }

        public Builder enablePromptTokensDetails(boolean v) {
            enablePromptTokensDetails = v;
            return this;
        }

        public Builder eosProbability(double v) {
            eosProbability = v;
            return this;
        }

        public Builder maxRequestBodyBytes(int v) {
            maxRequestBodyBytes = v;
            return this;
        }

        public Builder responsesStoreCapacity(int v) {
            responsesStoreCapacity = v;
            return this;
        }

        public Builder wallClock(Clock v) {
            wallClock = v;
            return this;
        }

        public Builder nanoTime(LongSupplier v) {
            nanoTime = v;
            return this;
        }

        public SimPodConfig build() {
            return new SimPodConfig(host, port, podName, model, servedModelNames, engine, numGpuBlocksOverride, seed,
                    mode, enablePromptTokensDetails, eosProbability, maxRequestBodyBytes, kvEvents, loraModules,
                    failureInjectionRate, failureTypes, responsesStoreCapacity, wallClock, nanoTime);
        }
    }
}
