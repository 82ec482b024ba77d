package dev.homing.bench.workload;

import dev.homing.sim.tokenizer.SimTokenizer;
import java.util.SplittableRandom;

/**
 * Token ids for Mooncake trace records, which give only lengths and chained block ids ({@code hash_ids}, one per
 * 512 tokens, equal ids meaning an equal prefix). Each block id becomes a fixed run of vocabulary words drawn from a
 * generator seeded by the workload seed and the id, so equal ids give equal tokens wherever they appear and the
 * replay keeps the trace's sharing structure; the last block of a record may be partial and takes the run's start.
 */
final class MooncakeBlocks {

    private static final SimTokenizer TOKENIZER = SimTokenizer.builtin();

    private final long seed;
    private final int blockTokens;

    MooncakeBlocks(long seed, int blockTokens) {
        this.seed = seed;
        this.blockTokens = blockTokens;
    }

    /**
     * The prompt of one record: {@code inputLength} tokens from its block ids; tokens beyond the ids' reach come from
     * {@code record}'s own generator, so they are shared with nobody.
     */
    int[] tokens(long[] hashIds, int inputLength, long record) {
        int[] tokens = new int[inputLength];
        int filled = 0;
        for (int b = 0; b < hashIds.length && filled < inputLength; b++) {
            filled = fill(tokens, filled, Math.min(blockTokens, inputLength - filled),
                    new SplittableRandom(mix(seed, hashIds[b])));
        }
        if (filled < inputLength) {
            fill(tokens, filled, inputLength - filled, new SplittableRandom(mix(~seed, record)));
        }
        return tokens;
    }

    private static int fill(int[] tokens, int from, int count, SplittableRandom rng) {
        int words = TOKENIZER.vocabularyWordCount();
        for (int i = 0; i < count; i++) {
            tokens[from + i] = TOKENIZER.vocabularyWordId(rng.nextInt(words));
        }
        return from + count;
    }

    /** Spreads (seed, id) over the generator's seed space so neighbouring ids give unrelated runs. */
    private static long mix(long seed, long id) {
        long z = seed ^ (id * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
