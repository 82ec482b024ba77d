package dev.homing.sim.engine;

import java.util.random.RandomGenerator;

/**
 * How long an engine step and a request's fixed overhead take (calibration.md §2.4). One step, mixing decodes and
 * chunked-prefill tokens, costs
 * <pre>
 *   step      = (t_fix + max(T_compute, T_memory)) · load
 *   T_compute = t_tok · Σ_prefill u_i·(1 + (c_i + u_i/2)/κ)  +  t_tok · D
 *   T_memory  = weightRead + kvRead · K
 *   load      = 1 + (timeFactorUnderLoad − 1)·(running − 1)/(maxNumSeqs − 1)      (llm-d-inference-sim)
 * </pre>
 * with u_i the uncached tokens of prefill i in this step, c_i the tokens already in its KV cache (cached prefix and
 * earlier chunks), D the decoding sequences and K their context tokens. Only uncached tokens cost compute; the κ term
 * is attention still reading the cached context. Optional Gaussian noise perturbs the prefill part, the decode part
 * and the request overhead, each clamped to ±70 % of what it perturbs, like llm-d-inference-sim's samples.
 *
 * @param stepOverheadNanos t_fix, paid by every step (scheduling, launch, sampling)
 * @param prefillNanosPerToken t_tok, dense compute per token
 * @param attentionKneeTokens κ, the context length at which attention FLOPs equal the dense FLOPs
 * @param weightReadNanos time to stream the weights once: the floor of a decode step
 * @param kvReadNanosPerToken time to read one context token's KV in a decode step
 * @param requestOverheadNanos a, per request before it reaches the scheduler (API server, tokenisation)
 * @param requestOverheadStdDevNanos noise on a
 * @param prefillStdDevNanos noise on a step's prefill compute
 * @param decodeStdDevNanos noise on a step's decode floor
 * @param timeFactorUnderLoad step multiplier when the batch holds maxNumSeqs requests, interpolated linearly from 1
 */
public record CostModel(
        long stepOverheadNanos,
        double prefillNanosPerToken,
        double attentionKneeTokens,
        long weightReadNanos,
        double kvReadNanosPerToken,
        long requestOverheadNanos,
        long requestOverheadStdDevNanos,
        long prefillStdDevNanos,
        long decodeStdDevNanos,
        double timeFactorUnderLoad) {

    private static final double CLAMP = 0.7;

    public CostModel {
        requireNonNegative(stepOverheadNanos, "stepOverheadNanos");
        requireNonNegative(prefillNanosPerToken, "prefillNanosPerToken");
        requireNonNegative(weightReadNanos, "weightReadNanos");
        requireNonNegative(kvReadNanosPerToken, "kvReadNanosPerToken");
        requireNonNegative(requestOverheadNanos, "requestOverheadNanos");
        requireNonNegative(requestOverheadStdDevNanos, "requestOverheadStdDevNanos");
        requireNonNegative(prefillStdDevNanos, "prefillStdDevNanos");
        requireNonNegative(decodeStdDevNanos, "decodeStdDevNanos");
        if (!(attentionKneeTokens > 0)) {
            throw new IllegalArgumentException("attentionKneeTokens must be positive, got " + attentionKneeTokens);
        }
        if (!(timeFactorUnderLoad >= 1)) {
            throw new IllegalArgumentException("timeFactorUnderLoad must be at least 1, got " + timeFactorUnderLoad);
        }
    }

    /** A noiseless model with no attention term and no load factor. */
    public static CostModel simple(long stepOverheadNanos, double prefillNanosPerToken, long weightReadNanos,
            long requestOverheadNanos) {
        return new CostModel(stepOverheadNanos, prefillNanosPerToken, Double.POSITIVE_INFINITY, weightReadNanos, 0,
                requestOverheadNanos, 0, 0, 0, 1);
    }

    /** The compute weight of {@code newTokens} prefill tokens on top of {@code contextTokens} already in KV. */
    public double prefillWork(int newTokens, long contextTokens) {
        return newTokens * (1 + (contextTokens + newTokens / 2.0) / attentionKneeTokens);
    }

    /**
     * The duration of one step, at least 1 ns.
     *
     * @param prefillWork Σ {@link #prefillWork} over the step's prefill chunks
     * @param decodes decoding sequences in the step
     * @param decodeContextTokens their context tokens together
     * @param running requests in the batch, for the load factor
     */
    public long stepNanos(double prefillWork, int decodes, long decodeContextTokens, int running, int maxNumSeqs,
            RandomGenerator rng) {
        double prefill = prefillNanosPerToken * prefillWork;
        double floor = weightReadNanos + kvReadNanosPerToken * decodeContextTokens;
        if (prefillStdDevNanos > 0 && prefill > 0) {
            prefill += noise(prefillStdDevNanos, prefill, rng);
        }
        if (decodeStdDevNanos > 0 && decodes > 0) {
            floor += noise(decodeStdDevNanos, floor, rng);
        }
        double compute = prefill + prefillNanosPerToken * decodes;
        double step = (stepOverheadNanos + Math.max(compute, floor)) * load(running, maxNumSeqs);
        return Math.max(1, Math.round(step));
    }

    /** The request overhead a, with its noise. */
    public long requestOverheadNanos(RandomGenerator rng) {
        double a = requestOverheadNanos;
        if (requestOverheadStdDevNanos > 0 && a > 0) {
            a += noise(requestOverheadStdDevNanos, a, rng);
        }
        return Math.max(0, Math.round(a));
    }

    double load(int running, int maxNumSeqs) {
        if (timeFactorUnderLoad == 1 || maxNumSeqs <= 1 || running <= 1) {
            return 1;
        }
        return 1 + (timeFactorUnderLoad - 1) * (Math.min(running, maxNumSeqs) - 1) / (maxNumSeqs - 1);
    }

    private static double noise(double stdDev, double mean, RandomGenerator rng) {
        double limit = CLAMP * mean;
        return Math.clamp(rng.nextGaussian() * stdDev, -limit, limit);
    }

    public CostModel withStepOverheadNanos(long v) {
        return new CostModel(v, prefillNanosPerToken, attentionKneeTokens, weightReadNanos, kvReadNanosPerToken,
                requestOverheadNanos, requestOverheadStdDevNanos, prefillStdDevNanos, decodeStdDevNanos,
                timeFactorUnderLoad);
    }

    public CostModel withPrefillNanosPerToken(double v) {
        return new CostModel(stepOverheadNanos, v, attentionKneeTokens, weightReadNanos, kvReadNanosPerToken,
                requestOverheadNanos, requestOverheadStdDevNanos, prefillStdDevNanos, decodeStdDevNanos,
                timeFactorUnderLoad);
    }

    public CostModel withAttentionKneeTokens(double v) {
        return new CostModel(stepOverheadNanos, prefillNanosPerToken, v, weightReadNanos, kvReadNanosPerToken,
                requestOverheadNanos, requestOverheadStdDevNanos, prefillStdDevNanos, decodeStdDevNanos,
                timeFactorUnderLoad);
    }

    public CostModel withWeightReadNanos(long v) {
        return new CostModel(stepOverheadNanos, prefillNanosPerToken, attentionKneeTokens, v, kvReadNanosPerToken,
                requestOverheadNanos, requestOverheadStdDevNanos, prefillStdDevNanos, decodeStdDevNanos,
                timeFactorUnderLoad);
    }

    public CostModel withKvReadNanosPerToken(double v) {
        return new CostModel(stepOverheadNanos, prefillNanosPerToken, attentionKneeTokens, weightReadNanos, v,
                requestOverheadNanos, requestOverheadStdDevNanos, prefillStdDevNanos, decodeStdDevNanos,
                timeFactorUnderLoad);
    }

    public CostModel withRequestOverheadNanos(long v) {
        return new CostModel(stepOverheadNanos, prefillNanosPerToken, attentionKneeTokens, weightReadNanos,
                kvReadNanosPerToken, v, requestOverheadStdDevNanos, prefillStdDevNanos, decodeStdDevNanos,
                timeFactorUnderLoad);
    }

    public CostModel withRequestOverheadStdDevNanos(long v) {
        return new CostModel(stepOverheadNanos, prefillNanosPerToken, attentionKneeTokens, weightReadNanos,
                kvReadNanosPerToken, requestOverheadNanos, v, prefillStdDevNanos, decodeStdDevNanos,
                timeFactorUnderLoad);
    }

    public CostModel withPrefillStdDevNanos(long v) {
        return new CostModel(stepOverheadNanos, prefillNanosPerToken, attentionKneeTokens, weightReadNanos,
                kvReadNanosPerToken, requestOverheadNanos, requestOverheadStdDevNanos, v, decodeStdDevNanos,
                timeFactorUnderLoad);
    }

    public CostModel withDecodeStdDevNanos(long v) {
        return new CostModel(stepOverheadNanos, prefillNanosPerToken, attentionKneeTokens, weightReadNanos,
                kvReadNanosPerToken, requestOverheadNanos, requestOverheadStdDevNanos, prefillStdDevNanos, v,
                timeFactorUnderLoad);
    }

    public CostModel withTimeFactorUnderLoad(double v) {
        return new CostModel(stepOverheadNanos, prefillNanosPerToken, attentionKneeTokens, weightReadNanos,
                kvReadNanosPerToken, requestOverheadNanos, requestOverheadStdDevNanos, prefillStdDevNanos,
                decodeStdDevNanos, v);
    }

    private static void requireNonNegative(double v, String name) {
        if (!(v >= 0)) {
            throw new IllegalArgumentException(name + " must not be negative, got " + v);
        }
    }
}
