package dev.homing.bench.policy;

import java.util.random.RandomGenerator;

/** Each request to a pod drawn uniformly (llm-d's {@code random-picker}, the "random" run of its benchmarks). */
final class RandomPolicy implements Policy {

    private final int pods;
    private final RandomGenerator random;

    RandomPolicy(int pods, RandomGenerator random) {
        this.pods = pods;
        this.random = random;
    }

    @Override
    public String name() {
        return Policies.RANDOM;
    }

    @Override
    public Placement place(PolicyRequest request) {
        return new Unheld(random.nextInt(pods));
    }
}
