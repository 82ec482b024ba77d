package dev.homing.sim.engine;

import java.util.random.RandomGenerator;

/**
 * Output that repeats given tokens (llm-d-inference-sim's {@code echo} mode): then EOS, or from the start again when
 * {@code cycle} is set (a request that ignores EOS keeps talking).
 */
public final class EchoTokens implements OutputModel {

    private final int[] tokens;
    private final int eosTokenId;
    private final boolean cycle;

    /** @param tokens what to repeat; not copied, must not change */
    public EchoTokens(int[] tokens, int eosTokenId, boolean cycle) {
        this.tokens = tokens;
        this.eosTokenId = eosTokenId;
        this.cycle = cycle;
    }

    @Override
    public int nextToken(int index, RandomGenerator rng) {
        if (index < tokens.length) {
            return tokens[index];
        }
        return cycle && tokens.length > 0 ? tokens[index % tokens.length] : eosTokenId;
    }

    @Override
    public boolean endsSequence(int tokenId) {
        return tokenId == eosTokenId;
    }
}
