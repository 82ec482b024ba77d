package dev.homing.sim.engine;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Calibrated engine shapes, from {@code /work/shared/reference/calibration.md} (section numbers below). Block size is
 * vLLM's CUDA default of 16 everywhere (llm-d's guides run 64; override with {@link EngineConfig#withBlockSize}).
 * KV capacities count vLLM's {@code num_gpu_blocks}, null block included, as vLLM's "KV cache size" log line does.
 */
public enum Preset {

    /**
     * The demo pod: vLLM on a few CPU cores with Qwen2.5-0.5B-Instruct (§3). Roofline estimates, not measurements:
     * prefill ≈1.5 ms per token (≈1 GFLOP/token on a few AVX-512 cores), a decode step ≈20 ms (streaming 0.99 GB of
     * BF16 weights at ≈50 GB/s), KV read 246 ns per context token (12 KiB/token at that bandwidth), κ 11,486 (§2.4),
     * request overhead ≈5 ms. KV: {@code VLLM_CPU_KVCACHE_SPACE} 4 GiB / 12,288 B per token = 349,525 tokens = 21,845
     * blocks. Scheduler: vLLM's CPU {@code serve} defaults, max_num_seqs 128, max_num_batched_tokens 2048 (§3);
     * max_model_len 32,768 (the model's context).
     */
    CPU_QWEN2_5_0_5B("cpu-qwen2.5-0.5b", "Qwen/Qwen2.5-0.5B-Instruct",
            new EngineConfig(16, 21_845, 128, 2048, 32_768,
                    new CostModel(0, 1_500_000, 11_486, 20_000_000, 246, 5_000_000, 0, 0, 0, 1), null)),

    /**
     * Qwen3-32B on 2×H100, TP2, fitted to llm-d's 73 %-capacity run (§1.2, §2.4, §5): t_tok 66.6 µs, κ 31,242,
     * weight read 10.9 ms plus 0.1 ms step overhead (llm-d's measured ITL floor 11 ms), KV read 43.7 µs per 1k context
     * tokens, per-request overhead a = 0.285 s (that harness's TTFT floor). KV 307,328 tokens per pod = 19,208 blocks.
     * Scheduler: vLLM's H100 {@code serve} defaults (§4), max_num_seqs 1024, max_num_batched_tokens 8192;
     * max_model_len 40,960 (the model's max_position_embeddings).
     */
    QWEN3_32B_H100_TP2("qwen3-32b-h100-tp2", "Qwen/Qwen3-32B",
            new EngineConfig(16, 19_208, 1024, 8192, 40_960,
                    new CostModel(100_000, 66_600, 31_242, 10_900_000, 43.7, 285_000_000, 0, 0, 0, 1), null)),

    /**
     * Llama-3.1-8B-Instruct on one H100 (§1.2, §2.4): t_tok 32.5 µs at MFU 0.5, κ 30,632, weight read 5.35 ms plus
     * 0.5 ms step overhead (BLIS β0 5.75 ms), KV read 43.7 µs per 1k tokens, a = 25 ms. KV 53.1 GiB = 435 k tokens =
     * 27,187 blocks. Scheduler: H100 {@code serve} defaults, 1024 / 8192; max_model_len 131,072.
     */
    LLAMA_3_1_8B_H100("llama-3.1-8b-h100", "meta-llama/Llama-3.1-8B-Instruct",
            new EngineConfig(16, 27_187, 1024, 8192, 131_072,
                    new CostModel(500_000, 32_500, 30_632, 5_350_000, 43.7, 25_000_000, 0, 0, 0, 1), null)),

    /**
     * Llama-3.1-70B-Instruct on 4×H100, TP4, as in llm-d's 37 %-capacity run (§1.2, §2.4, §5): t_tok 71.3 µs,
     * κ 53,825, weight read 11.8 ms plus 1.2 ms for TP all-reduce and launch (llm-d's measured ITL floor 13 ms), KV read
     * 27.3 µs per 1k tokens, a = 0.14 s (that harness's TTFT floor). KV 461,376 tokens = 28,836 blocks. Scheduler: H100
     * {@code serve} defaults, 1024 / 8192; max_model_len 131,072.
     */
    LLAMA_3_1_70B_H100_TP4("llama-3.1-70b-h100-tp4", "meta-llama/Llama-3.1-70B-Instruct",
            new EngineConfig(16, 28_836, 1024, 8192, 131_072,
                    new CostModel(1_200_000, 71_300, 53_825, 11_800_000, 27.3, 140_000_000, 0, 0, 0, 1), null));

    private final String id;
    private final String modelName;
    private final EngineConfig engine;

    Preset(String id, String modelName, EngineConfig engine) {
        this.id = id;
        this.modelName = modelName;
        this.engine = engine;
    }

    /** The name used on the command line, e.g. {@code cpu-qwen2.5-0.5b}. */
    public String id() {
        return id;
    }

    /** The Hugging Face model this preset imitates. */
    public String modelName() {
        return modelName;
    }

    public EngineConfig engine() {
        return engine;
    }

    /** The preset whose {@link #id()} is {@code name}. */
    public static Preset byName(String name) {
        for (Preset p : values()) {
            if (p.id.equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown preset '" + name + "'; known: " + ids());
    }

    public static String ids() {
        return Arrays.stream(values()).map(Preset::id).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return id;
    }
}
