package dev.homing.sim.engine;

import java.util.SplittableRandom;

/** Test fixture: small engines, prompts and a virtual-time loop. */
public final class Engines {

    public static final int BLOCK = 16;

    private Engines() {
    }

    /** A cost model with round numbers: 1 ms step overhead, 100 µs per prefill token, 10 ms decode floor. */
    public static CostModel simpleCost() {
        return CostModel.simple(1_000_000, 100_000, 10_000_000, 0);
    }

    public static EngineConfig config(int numGpuBlocks) {
        return new EngineConfig(BLOCK, numGpuBlocks, 16, 512, 4096, simpleCost(), "42");
    }

    public static Engine engine(EngineConfig config) {
        return new Engine(config, KvEventSink.NONE, new SplittableRandom(1));
    }

    /** Runs every event until the engine is idle; returns the model time of the last one. */
    public static long runUntilIdle(Engine engine) {
        long t = Long.MIN_VALUE;
        for (long next = engine.nextEventNanos(); next != Long.MAX_VALUE; next = engine.nextEventNanos()) {
            t = next;
            engine.advanceTo(next);
        }
        return t;
    }

    /** Distinct-looking tokens; different seeds give different prompts. */
    public static int[] prompt(int length, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        int[] p = new int[length];
        for (int i = 0; i < length; i++) {
            p[i] = 1000 + rng.nextInt(50_000);
        }
        return p;
    }

    /** Output that never ends by itself: token 7 forever, no EOS. */
    public static OutputModel steady() {
        return new EchoTokens(new int[] {7}, -1, true);
    }

    public static SimRequest request(String id, int[] prompt, int maxTokens) {
        return SimRequest.of(id, prompt, maxTokens, steady());
    }
}
