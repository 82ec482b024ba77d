package dev.homing.sim.engine;

import java.util.random.RandomGenerator;

/** What the simulated model "says": the token at each output position, and which token ends a sequence. */
public interface OutputModel {

    /**
     * The output token at {@code index} (0 for the first). Called once per position, in order, on the engine thread;
     * draw any randomness from {@code rng}, the engine's seeded generator, so a run is reproducible.
     */
    int nextToken(int index, RandomGenerator rng);

    /** Whether {@code tokenId} is the end-of-sequence token; the engine stops there unless the request ignores EOS. */
    boolean endsSequence(int tokenId);
}
