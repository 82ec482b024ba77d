package dev.homing.core.plugins.prefix.precise;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.scheduling.CycleKey;

/** Per endpoint, the tier-weighted run of leading prompt blocks it holds, as the precise index says. */
public record PreciseScores(double[] weightedBlocks) {

    public static final CycleKey<PreciseScores> KEY = CycleKey.of("precise-scores", PreciseScores.class);

    public double of(EndpointState e) {
        return e.index() < weightedBlocks.length ? weightedBlocks[e.index()] : 0;
    }
}
