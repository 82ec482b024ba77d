package dev.homing.bench.virtual;

import dev.homing.sim.engine.OutputModel;
import dev.homing.sim.tokenizer.SimTokenizer;
import java.util.random.RandomGenerator;

/**
 * A response whose length is fixed before it is sent, so that every policy's run generates the same tokens for the
 * same request and throughputs compare like for like (a model's answer does not depend on the pod it runs on). The
 * tokens are one ordinary word, then the end-of-text token at {@code length} (never reached when the request ignores
 * EOS and {@code length} is its max_tokens). Draws nothing from the engine's generator.
 */
final class ScriptedOutput implements OutputModel {

    private static final int WORD = SimTokenizer.builtin().vocabularyWordId(0);
    private static final int EOS = SimTokenizer.ENDOFTEXT;

    private final int length;

    ScriptedOutput(int length) {
        this.length = length;
    }

    @Override
    public int nextToken(int index, RandomGenerator rng) {
        return index < length ? WORD : EOS;
    }

    @Override
    public boolean endsSequence(int tokenId) {
        return tokenId == EOS;
    }
}
