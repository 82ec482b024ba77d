package dev.homing.cli;

import dev.homing.protocol.config.GoDuration;
import dev.homing.protocol.kvevents.KvEventFormat;
import dev.homing.sim.engine.CostModel;
import dev.homing.sim.engine.EngineConfig;
import dev.homing.sim.engine.Preset;
import dev.homing.sim.http.FailureType;
import dev.homing.sim.http.LoraModule;
import dev.homing.sim.http.OutputMode;
import dev.homing.sim.http.SimPod;
import dev.homing.sim.http.SimPodConfig;
import dev.homing.sim.kvevents.KvEventsConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code homing sim}: one simulated vLLM pod in the foreground, until SIGINT or SIGTERM. Flags follow vLLM's names where
 * vLLM has the knob, and llm-d-inference-sim's for its latency flags, which are mapped onto the engine's cost model.
 */
@Command(name = "sim", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Run one simulated vLLM pod: vLLM V1 scheduling (continuous batching, chunked prefill, preemption), a "
                    + "prefix cache with vLLM's block hashing, and vLLM's OpenAI API and /metrics, on a cost model "
                    + "calibrated per preset.",
            "Serves POST /v1/completions, /v1/chat/completions and their /render variants, POST /v1/responses "
                    + "(GET /v1/responses/{id}, POST .../cancel), /v1/embeddings, POST /tokenize, "
                    + "/detokenize, /v1/load_lora_adapter, /v1/unload_lora_adapter, /reset_prefix_cache, GET "
                    + "/v1/models, /health, /ping, /version, /metrics; publishes vLLM's KV-cache events over ZMQ "
                    + "with --kv-events-config.",
            "Environment, as vLLM reads it: PYTHONHASHSEED (block-hash root), VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES "
                    + "(1, the default: 64-bit hashes; 0: 32-byte digests), VLLM_ENABLE_RESPONSES_API_STORE (1: "
                    + "store Responses API responses for previous_response_id, the last 10,000; unset: store none).",
            "Durations are Go-style: 10ms, 1.5s, 250us, 1m30s."})
final class SimCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--model", required = true, paramLabel = "NAME",
            description = "Model name or path, as vLLM's --model. Served under this name unless "
                    + "--served-model-name is given; reported as 'root' by /v1/models.")
    String model;

    @Option(names = "--served-model-name", arity = "1..*", split = "\\s+", hideParamSyntax = true,
            paramLabel = "NAME",
            description = "One or more names clients may put in 'model' (as vLLM's flag); the first is the "
                    + "model_name metric label. Default: --model.")
    List<String> servedModelNames;

    @Option(names = "--host", defaultValue = "127.0.0.1",
            description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "8000",
            description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--pod-name", paramLabel = "NAME",
            description = "Sent as the x-inference-pod header on every response, as llm-d-inference-sim does "
                    + "(default: $POD_NAME, else homing-sim-<port>).")
    String podName;

    @Option(names = "--preset", defaultValue = "cpu-qwen2.5-0.5b", paramLabel = "NAME",
            description = "Engine shape and cost model: cpu-qwen2.5-0.5b (vLLM on a few CPU cores), "
                    + "qwen3-32b-h100-tp2 (llm-d's 73%%-capacity pods), llama-3.1-8b-h100, llama-3.1-70b-h100-tp4 "
                    + "(llm-d's 37%%-capacity pods). The flags below override it (default: ${DEFAULT-VALUE}).")
    String preset;

    @Option(names = "--block-size", paramLabel = "TOKENS",
            description = "Tokens per KV block (vLLM --block-size; presets use 16). Without "
                    + "--num-gpu-blocks-override the preset's KV capacity in tokens is kept, so bigger blocks are "
                    + "fewer.")
    Integer blockSize;

    @Option(names = {"--num-gpu-blocks-override", "--kv-cache-size"}, paramLabel = "BLOCKS",
            description = "KV cache size in blocks, vLLM's null block included (vLLM --num-gpu-blocks-override; "
                    + "llm-d-inference-sim --kv-cache-size). Default: the preset's.")
    Integer numGpuBlocks;

    @Option(names = "--max-num-seqs", paramLabel = "N",
            description = "Most requests in the running batch; the rest wait (vLLM --max-num-seqs). "
                    + "Default: the preset's.")
    Integer maxNumSeqs;

    @Option(names = "--max-num-batched-tokens", paramLabel = "TOKENS",
            description = "Token budget of one engine step; longer prompts are prefilled in chunks "
                    + "(vLLM --max-num-batched-tokens). Default: the preset's.")
    Integer maxNumBatchedTokens;

    @Option(names = "--max-model-len", paramLabel = "TOKENS",
            description = "Most tokens of prompt plus output; longer requests get vLLM's 400 "
                    + "(vLLM --max-model-len). Default: the preset's.")
    Integer maxModelLen;

    @Option(names = "--enable-prompt-tokens-details", negatable = true, defaultValue = "false",
            fallbackValue = "true",
            description = "Report usage.prompt_tokens_details.cached_tokens when some prompt tokens were cached, as "
                    + "vLLM's flag (default: ${DEFAULT-VALUE}).")
    boolean enablePromptTokensDetails;

    @Option(names = "--prefix-caching-hash-algo", defaultValue = "sha256_cbor", paramLabel = "ALGO",
            description = "vLLM's block-hash algorithm. Only sha256_cbor is simulated (the default here; vLLM's "
                    + "default, pickle-based sha256, cannot be reproduced outside Python).")
    String prefixCachingHashAlgo;

    @Option(names = "--kv-events-config", paramLabel = "JSON",
            description = "vLLM's KVEventsConfig as JSON: enable_kv_cache_events, publisher (zmq|null), endpoint "
                    + "(tcp://*:5557; bound when it contains * or :: or is ipc/inproc, else connected), "
                    + "replay_endpoint, buffer_steps (10000), hwm (100000), max_queue_size (100000), topic (\"\"). "
                    + "Default: events off.")
    String kvEventsConfig;

    @Option(names = "--use-vllm-map-event-format", defaultValue = "false", fallbackValue = "true", arity = "0..1",
            paramLabel = "true|false",
            description = "Encode events as vLLM >= 0.26 does (tagged maps) instead of the legacy tagged arrays "
                    + "(llm-d-inference-sim's flag; default: ${DEFAULT-VALUE}).")
    boolean mapEventFormat;

    @Option(names = "--enable-lora", description = "Serve LoRA adapters (vLLM's flag; implied by --lora-modules).")
    boolean enableLora;

    @Option(names = "--lora-modules", arity = "1..*", paramLabel = "MODULE",
            description = "LoRA adapters to load at start, each name=path or {\"name\":...,\"path\":...,"
                    + "\"base_model_name\":...} (vLLM's forms). Requests naming one are served by it: its name "
                    + "goes into block hashes and KV events.")
    List<String> loraModules;

    @Option(names = "--max-loras", defaultValue = "1", paramLabel = "N",
            description = "Most distinct LoRA adapters in one batch; requests for others wait (vLLM's flag; "
                    + "default: ${DEFAULT-VALUE}).")
    int maxLoras;

    @Option(names = "--failure-injection-rate", defaultValue = "0", paramLabel = "PERCENT",
            description = "Percent of completion requests that fail on purpose (llm-d-inference-sim's flag; "
                    + "default: ${DEFAULT-VALUE}). The X-Return-Error: <status> request header forces one.")
    int failureInjectionRate;

    @Option(names = "--failure-types", arity = "1..*", split = "[\\s,]+", paramLabel = "TYPE", hideParamSyntax = true,
            description = "What injected failures are: rate_limit (429), invalid_api_key (401), context_length "
                    + "(400), server_error (503), invalid_request (400), model_not_found (404). Default: all.")
    List<String> failureTypes;

    @Option(names = "--mode", defaultValue = "random", paramLabel = "random|echo",
            description = "random: seeded random words, ending early with --eos-probability unless the request "
                    + "sets ignore_eos; echo: the prompt (or last user message) again, then stop "
                    + "(default: ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--eos-probability", defaultValue = "0.02", paramLabel = "P",
            description = "Random mode: chance per output token of ending the answer (default: ${DEFAULT-VALUE}).")
    double eosProbability;

    @Option(names = "--seed", defaultValue = "0",
            description = "Seed of the pod's random generator: outputs, latency noise, and the block-hash root "
                    + "when no hash seed is set (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--hash-seed", paramLabel = "SEED",
            description = "PYTHONHASHSEED for vLLM's sha256_cbor block hashes, making them reproducible across "
                    + "pods (default: $PYTHONHASHSEED; unset means a random root, as in vLLM).")
    String hashSeed;

    @Option(names = "--time-to-first-token", converter = GoDurationConverter.class, paramLabel = "DURATION",
            description = "Fixed overhead of every request before it reaches the scheduler (API server, "
                    + "tokenisation): the TTFT of an empty engine on a fully cached prompt. Default: the preset's.")
    Duration timeToFirstToken;

    @Option(names = "--time-to-first-token-std-dev", converter = GoDurationConverter.class, paramLabel = "DURATION",
            description = "Gaussian noise on --time-to-first-token, clamped to ±70%% of it (default: none).")
    Duration timeToFirstTokenStdDev;

    @Option(names = "--prefill-time-per-token", converter = GoDurationConverter.class, paramLabel = "DURATION",
            description = "Compute time per uncached prompt token (t_tok; decode tokens cost the same compute). "
                    + "Cached prefix tokens cost only attention. Default: the preset's.")
    Duration prefillTimePerToken;

    @Option(names = "--prefill-time-std-dev", converter = GoDurationConverter.class, paramLabel = "DURATION",
            description = "Gaussian noise on each step's prefill compute, clamped to ±70%% of it (default: none).")
    Duration prefillTimeStdDev;

    @Option(names = "--inter-token-latency", converter = GoDurationConverter.class, paramLabel = "DURATION",
            description = "Floor of a decode step, i.e. the inter-token latency of a lone request (weight reads; "
                    + "replaces the preset's weight-read time and step overhead). Bigger batches add KV reads "
                    + "and compute on top. Default: the preset's.")
    Duration interTokenLatency;

    @Option(names = "--inter-token-latency-std-dev", converter = GoDurationConverter.class, paramLabel = "DURATION",
            description = "Gaussian noise on each step's decode floor, clamped to ±70%% of it (default: none).")
    Duration interTokenLatencyStdDev;

    @Option(names = "--time-factor-under-load", paramLabel = "FACTOR",
            description = "llm-d-inference-sim's slowdown under load: steps take up to this factor longer as the "
                    + "batch fills to --max-num-seqs, 1 + (f-1)(running-1)/(max-num-seqs-1). Default: 1.")
    Double timeFactorUnderLoad;

    @Override
    public Integer call() throws Exception {
        SimPodConfig config;
        try {
            config = config();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        try (ShutdownSignal signal = new ShutdownSignal(); SimPod pod = SimPod.start(config)) {
            EngineConfig e = config.engine();
            System.out.printf("homing sim: pod %s serving %s on %s (preset %s: %,d KV blocks of %d tokens, "
                            + "max_num_seqs %d, max_num_batched_tokens %d, max_model_len %d)%n",
                    config.podName(), config.servedModelNames(), pod.baseUrl(), preset, e.numGpuBlocks(),
                    e.blockSize(), e.maxNumSeqs(), e.maxNumBatchedTokens(), e.maxModelLen());
            if (pod.kvEventsEndpoint() != null) {
                System.out.printf("homing sim: KV events (%s, %s hashes) on %s%s%n",
                        config.kvEvents().format() == KvEventFormat.MAP ? "tagged maps" : "tagged arrays",
                        config.kvEvents().intBlockHashes() ? "64-bit" : "32-byte", pod.kvEventsEndpoint(),
                        pod.kvEventsReplayEndpoint() == null ? "" : ", replay on " + pod.kvEventsReplayEndpoint());
            }
            signal.await();
        }
        return 0;
    }

    SimPodConfig config() {
        return config(System.getenv());
    }

    /** The pod's config from the flags and {@code env} (the process environment, as vLLM reads it). */
    SimPodConfig config(Map<String, String> env) {
        if (!"sha256_cbor".equals(prefixCachingHashAlgo)) {
            throw new IllegalArgumentException("--prefix-caching-hash-algo " + prefixCachingHashAlgo
                    + " is not simulated; only sha256_cbor is (the one other languages can reproduce)");
        }
        Preset p = Preset.byName(preset);
        EngineConfig engine = p.engine();
        if (blockSize != null) {
            engine = numGpuBlocks == null ? engine.withBlockSizeKeepingCapacity(blockSize)
                    : engine.withBlockSize(blockSize);
        }
        if (numGpuBlocks != null) {
            engine = engine.withNumGpuBlocks(numGpuBlocks);
        }
        if (maxNumSeqs != null) {
            engine = engine.withMaxNumSeqs(maxNumSeqs);
        }
        if (maxNumBatchedTokens != null) {
            engine = engine.withMaxNumBatchedTokens(maxNumBatchedTokens);
        }
        if (maxModelLen != null) {
            engine = engine.withMaxModelLen(maxModelLen);
        }
        List<LoraModule> loras = loraModules == null ? List.of()
                : loraModules.stream().map(LoraModule::parse).toList();
        if (enableLora || !loras.isEmpty()) {
            if (maxLoras < 1) {
                throw new IllegalArgumentException("--max-loras must be at least 1");
            }
            engine = engine.withMaxLoras(maxLoras);
        }
        engine = engine.withCost(cost(engine.cost()))
                .withHashSeed(hashSeed != null ? hashSeed : env.get("PYTHONHASHSEED"));
        KvEventsConfig events = kvEventsConfig == null ? KvEventsConfig.disabled()
                : KvEventsConfig.parse(kvEventsConfig);
        events = events.withFormat(mapEventFormat ? KvEventFormat.MAP : KvEventFormat.ARRAY)
                .withIntBlockHashes(KvEventsConfig.intBlockHashesFromEnv(
                        env.get("VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES")));
        String name = podName != null ? podName : env.get("POD_NAME");
        return SimPodConfig.builder()
                .engine(engine)
                .model(model)
                .servedModelNames(servedModelNames)
                .host(host)
                .port(port)
                .podName(name != null && !name.isBlank() ? name : "homing-sim-" + port)
                .seed(seed)
                .mode(OutputMode.of(mode))
                .eosProbability(eosProbability)
                .enablePromptTokensDetails(enablePromptTokensDetails)
                .numGpuBlocksOverride(numGpuBlocks)
                .kvEvents(events)
                .loraModules(loras)
                .failureInjectionRate(failureInjectionRate)
                .failureTypes(failureTypes == null ? List.of()
                        : failureTypes.stream().filter(t -> !t.isBlank()).map(FailureType::of).toList())
                .responsesStoreCapacity(responsesStore(env.get("VLLM_ENABLE_RESPONSES_API_STORE")))
                .build();
    }

    /** vLLM stores Responses API responses only with {@code VLLM_ENABLE_RESPONSES_API_STORE} set true. */
    private static int responsesStore(String env) {
        boolean on = env != null && (env.equals("1") || env.equalsIgnoreCase("true"));
        return on ? 10_000 : 0;
    }

    private CostModel cost(CostModel c) {
        if (timeToFirstToken != null) {
            c = c.withRequestOverheadNanos(timeToFirstToken.toNanos());
        }
        if (timeToFirstTokenStdDev != null) {
            c = c.withRequestOverheadStdDevNanos(timeToFirstTokenStdDev.toNanos());
        }
        if (prefillTimePerToken != null) {
            c = c.withPrefillNanosPerToken(prefillTimePerToken.toNanos());
        }
        if (prefillTimeStdDev != null) {
            c = c.withPrefillStdDevNanos(prefillTimeStdDev.toNanos());
        }
        if (interTokenLatency != null) {
            c = c.withWeightReadNanos(interTokenLatency.toNanos()).withStepOverheadNanos(0);
        }
        if (interTokenLatencyStdDev != null) {
            c = c.withDecodeStdDevNanos(interTokenLatencyStdDev.toNanos());
        }
        if (timeFactorUnderLoad != null) {
            c = c.withTimeFactorUnderLoad(timeFactorUnderLoad);
        }
        return c;
    }

    /** Go-style durations for picocli. */
    static final class GoDurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            Duration d = GoDuration.parse(value);
            if (d.isNegative()) {
                throw new IllegalArgumentException("a duration must not be negative: " + value);
            }
            return d;
        }
    }
}
