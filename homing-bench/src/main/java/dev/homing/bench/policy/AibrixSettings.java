package dev.homing.bench.policy;

/**
 * One AIBrix {@code prefix-cache} the lab models: a code version's load gate with the values its environment gives.
 *
 * @param name           the policy's name in the lab
 * @param blockSize      bytes per hashed block ({@code AIBRIX_PREFIX_CACHE_BLOCK_SIZE})
 * @param gate           which load gate the code version has
 * @param gateCount      {@link Gate#ABS_COUNT}: the count gap that triggers it
 *                       ({@code AIBRIX_PREFIX_CACHE_POD_RUNNING_REQUEST_IMBALANCE_ABS_COUNT}); {@link Gate#FACTOR_GAP}:
 *                       the minimum gap ({@code AIBRIX_PREFIX_CACHE_LOAD_IMBALANCE_MIN_GAP})
 * @param gateFactor     {@link Gate#FACTOR_GAP} only: {@code AIBRIX_PREFIX_CACHE_LOAD_IMBALANCE_FACTOR}
 * @param deviationFactor {@code AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR}
 */
record AibrixSettings(String name, int blockSize, Gate gate, int gateCount, double gateFactor,
                      double deviationFactor) {

    /** The load gates of AIBrix's versions. */
    enum Gate {
        /**
         * {@code max − min > count} over the running requests: the request goes to the least-request pod and no
         * prefix is matched ({@code getTargetPodOnLoadImbalance} of 2025, which the deployment's env configures).
         */
        ABS_COUNT,
        /**
         * {@code max > factor · (mean + 1)} and {@code max − min ≥ gap}: prefix matching only considers the pods at
         * the minimum ({@code getTargetPodListOnLoadImbalance} of current main; it no longer reads the ABS_COUNT env).
         */
        FACTOR_GAP
    }

    /** The {@code character} tokenizer's table of 200,000 blocks, as every version's indexer default. */
    static final int BLOCK_NUMBER = 200_000;

    /**
     * As deployed: the code of {@code vllm-project/aibrix} @ {@code 429c45e90fb4eb7f7963219f98aa63429bbdd6e2} with the
     * env of its gateway-plugin Deployment ({@code config/gateway/gateway-plugin/gateway-plugin.yaml} @
     * {@code fea20d123d276b5bbe845e16ca280236512d4e31}): blocks of 128 bytes, ABS_COUNT 16, deviation factor 2.
     */
    static final AibrixSettings SHIPPED = new AibrixSettings(Policies.AIBRIX, 128, Gate.ABS_COUNT, 16, 0, 2);

    /** The same code without that env: its fallback constants, 4-byte blocks, ABS_COUNT 8, deviation factor 1. */
    static final AibrixSettings CODE_DEFAULTS =
            new AibrixSettings(Policies.AIBRIX_CODE_DEFAULTS, 4, Gate.ABS_COUNT, 8, 0, 1);

    /**
     * Current main ({@code pkg/plugins/gateway/algorithms/prefix_cache.go} @
     * {@code 01de8a514d00c51b12132a3f2cd1f7d8349c8c9f}) with the same Deployment env: blocks of 128 bytes, the
     * factor-2 / minimum-gap-8 gate (code defaults; the env's ABS_COUNT is not read any more), deviation factor 2.
     */
    static final AibrixSettings MAIN = new AibrixSettings(Policies.AIBRIX_MAIN, 128, Gate.FACTOR_GAP, 8, 2.0, 2);
}
