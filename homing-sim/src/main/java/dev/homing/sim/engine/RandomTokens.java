package dev.homing.sim.engine;

import java.util.random.RandomGenerator;

/**
 * Output drawn uniformly from a fixed set of tokens, ending with the EOS token with a fixed probability per position
 * after the first (so a response is never empty, and lengths are geometric with mean about {@code 1/eosProbability}).
 */
public final class RandomTokens implements OutputModel {

    private final int[] candidates;
    private final int eosTokenId;
    private final double eosProbability;

    /**
     * @param candidates tokens to draw from; not copied, must not change
     * @param eosProbability chance per position of ending; 0 never ends (the request then runs to max_tokens)
     */
    public RandomTokens(int[] candidates, int eosTokenId, double eosProbability) {
        if (candidates.length == 0) {
            throw new IllegalArgumentException("no candidate tokens");
        }
        if (!(eosProbability >= 0 && eosProbability <= 1)) {
            throw new IllegalArgumentException("eosProbability must be in [0, 1], got " + eosProbability);
        }
        this.candidates = candidates;
        this.eosTokenId = eosTokenId;
        this.eosProbability = eosProbability;
    }

    @Override
    public int nextToken(int index, RandomGenerator rng) {
        if (index > 0 && eosProbability > 0 && rng.nextDouble() < eosProbability) {
            return eosTokenId;
        }
        return candidates[rng.nextInt(candidates.length)];
    }

    @Override
    public boolean endsSequence(int tokenId) {
        return tokenId == eosTokenId;
    }
}
