package dev.homing.core.framework.scheduling;

import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The randomness a plugin may draw from in a cycle. A real decision draws from the injected generator; a dry run
 * draws from a throwaway one seeded by the request, so explaining a decision does not move the shared generator and
 * change the decisions that follow (seeded simulations stay reproducible whatever is explained meanwhile).
 */
public final class CycleRandom {

    private CycleRandom() {
    }

    public static RandomGenerator of(Cycle cycle, RandomGenerator shared) {
        if (!cycle.isDryRun()) {
            return shared;
        }
        return new SplittableRandom(31L * cycle.request().requestId().hashCode() + cycle.startNanos());
    }
}
