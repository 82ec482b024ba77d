package dev.homing.bench.workload;

import dev.homing.sim.tokenizer.SimTokenizer;
import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * Text together with the token ids the simulator's tokenizer makes of it. Built from vocabulary words, each one token
 * with its leading space, so the ids are known without tokenizing and pieces join without merging across the seam:
 * {@code encode(a.text + b.text) == a.tokens ++ b.tokens}.
 */
record TokenText(String text, int[] tokens) {

    static final TokenText EMPTY = new TokenText("", new int[0]);

    private static final SimTokenizer TOKENIZER = SimTokenizer.builtin();

    /** {@code n} random vocabulary words: exactly {@code n} tokens. */
    static TokenText words(int n, RandomGenerator rng) {
        int words = TOKENIZER.vocabularyWordCount();
        StringBuilder text = new StringBuilder(n * 7);
        int[] tokens = new int[n];
        for (int i = 0; i < n; i++) {
            int w = rng.nextInt(words);
            text.append(TOKENIZER.vocabularyWord(w));
            tokens[i] = TOKENIZER.vocabularyWordId(w);
        }
        return new TokenText(text.toString(), tokens);
    }

    /** The text of word ids ({@link SimTokenizer#vocabularyWordId}); they re-encode to themselves. */
    static TokenText ofWordIds(int[] wordIds) {
        return new TokenText(TOKENIZER.decode(wordIds), wordIds);
    }

    TokenText plus(TokenText next) {
        int[] joined = Arrays.copyOf(tokens, tokens.length + next.tokens.length);
        System.arraycopy(next.tokens, 0, joined, tokens.length, next.tokens.length);
        return new TokenText(text + next.text, joined);
    }

    int length() {
        return tokens.length;
    }
}
