package dev.homing.sim.engine;

import static dev.homing.sim.engine.Engines.BLOCK;
import static dev.homing.sim.engine.Engines.config;
import static dev.homing.sim.engine.Engines.engine;
import static dev.homing.sim.engine.Engines.prompt;
import static dev.homing.sim.engine.Engines.request;
import static dev.homing.sim.engine.Engines.runUntilIdle;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.protocol.hashing.BlockHash;
import dev.homing.protocol.hashing.BlockHasher;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PrefixCacheTest {

    private static Usage run(Engine engine, SimRequest request, long at) {
        RecordingObserver o = new RecordingObserver();
        engine.submit(request, at, o);
        runUntilIdle(engine);
        assertThat(o.finished()).isTrue();
        return o.usage;
    }

    /**
     * vLLM hits only full blocks and always recomputes the last prompt token: a repeat of an L-token prompt finds
     * ⌊(L − 1)/16⌋ blocks, so exactly k blocks gets k − 1 and one token more than k blocks gets k.
     */
    @ParameterizedTest(name = "{0} tokens -> {1} cached on repeat")
    @CsvSource({
            "1, 0", "15, 0", "16, 0", "17, 16", "31, 16", "32, 16", "33, 32",
            "63, 48", "64, 48", "65, 64", "160, 144", "161, 160"})
    void repeatedPromptHitsFullBlocksButTheLastToken(int length, int expectedCached) {
        Engine engine = engine(config(1000));
        int[] p = prompt(length, 3);

        Usage first = run(engine, request("a", p, 1), 0);
        Usage second = run(engine, request("b", p, 1), 1_000_000_000L);

        assertThat(first.cachedTokens()).isZero();
        assertThat(second.cachedTokens()).isEqualTo(expectedCached);
        assertThat(engine.stats().prefixCacheQueries()).isEqualTo(2L * length);
        assertThat(engine.stats().prefixCacheHits()).isEqualTo(expectedCached);
    }

    @Test
    void aSharedPrefixHitsUpToTheFirstDifferentBlock() {
        Engine engine = engine(config(1000));
        int[] a = prompt(100, 1);
        int[] b = a.clone();
        b[40] = 999_999; // inside block 2 (tokens 32..47)

        run(engine, request("a", a, 1), 0);
        Usage u = run(engine, request("b", b, 1), 1_000_000_000L);

        assertThat(u.cachedTokens()).isEqualTo(2 * BLOCK);
    }

    @Test
    void outputTokensFillBlocksThatLaterPromptsHit() {
        Engine engine = engine(config(1000));
        int[] p = prompt(32, 5);
        RecordingObserver o = new RecordingObserver();
        engine.submit(SimRequest.of("a", p, 20, new EchoTokens(prompt(20, 6), -1, false)), 0, o);
        runUntilIdle(engine);
        // 52 tokens, KV for the first 51 (the last sampled token never gets any): three full blocks cached.
        int[] conversation = new int[49];
        System.arraycopy(p, 0, conversation, 0, 32);
        for (int i = 0; i < 17; i++) {
            conversation[32 + i] = o.tokens.get(i);
        }

        assertThat(engine.cachedPrefixTokens(conversation, null, null)).isEqualTo(48);
        assertThat(run(engine, request("b", conversation, 1), 1_000_000_000L).cachedTokens()).isEqualTo(48);
    }

    @Test
    void aLongAnswerPastTheFirstAllocationStillCachesEveryFullBlock() {
        Engine engine = engine(config(1000));
        int[] p = prompt(32, 5);
        RecordingObserver o = new RecordingObserver();
        // 600 output tokens: the request's token and hash arrays grow twice on the way
        engine.submit(SimRequest.of("a", p, 600, new EchoTokens(prompt(600, 7), -1, false)), 0, o);
        runUntilIdle(engine);
        int[] conversation = new int[625];
        System.arraycopy(p, 0, conversation, 0, 32);
        for (int i = 0; i < 593; i++) {
            conversation[32 + i] = o.tokens.get(i);
        }
        // 632 tokens, KV for 631: 39 full blocks; the 625-token prompt may hit 624 of them
        assertThat(engine.cachedPrefixTokens(conversation, null, null)).isEqualTo(39 * BLOCK);
    }

    @Test
    void cacheSaltAndLoraSeparateCaches() {
        Engine engine = engine(config(1000));
        int[] p = prompt(64, 2);

        run(engine, request("a", p, 1), 0);

        assertThat(run(engine, request("b", p, 1).withCacheSalt("tenant-1"), 1_000_000_000L).cachedTokens()).isZero();
        assertThat(run(engine, request("c", p, 1).withCacheSalt("tenant-1"), 2_000_000_000L).cachedTokens())
                .isEqualTo(48);
        assertThat(run(engine, request("d", p, 1).withLora("adapter", 1), 3_000_000_000L).cachedTokens()).isZero();
        assertThat(run(engine, request("e", p, 1), 4_000_000_000L).cachedTokens()).isEqualTo(48);
    }

    @Test
    void blockStoredEventsChainParentsAndCarryTheTokens() {
        RecordingSink sink = new RecordingSink();
        Engine engine = new Engine(config(1000), sink, new SplittableRandom(1));
        int[] p = prompt(40, 9);
        RecordingObserver o = new RecordingObserver();
        engine.submit(request("a", p, 30), 0, o);
        runUntilIdle(engine);

        // 70 tokens, KV for 69: blocks 0-1 at the prefill, then 2 and 3 as decoding fills them.
        assertThat(sink.stored).hasSize(3);
        assertThat(sink.stored.get(0).parentHash()).isNull();
        assertThat(sink.stored.get(0).blockHashes()).hasSize(2);
        assertThat(sink.stored.get(1).parentHash()).isEqualTo(sink.stored.get(0).blockHashes().get(1));
        assertThat(sink.stored.get(2).parentHash()).isEqualTo(sink.stored.get(1).blockHashes().get(0));

        int[] all = new int[70];
        System.arraycopy(p, 0, all, 0, 40);
        for (int i = 0; i < 30; i++) {
            all[40 + i] = o.tokens.get(i);
        }
        assertThat(sink.stored.get(0).tokenIds()).containsExactly(Arrays.copyOfRange(all, 0, 32));
        assertThat(sink.stored.get(2).tokenIds()).containsExactly(Arrays.copyOfRange(all, 48, 64));
        assertThat(sink.stored).allSatisfy(s -> assertThat(s.blockSize()).isEqualTo(BLOCK));

        // The engine's hashes are vLLM's sha256_cbor chain under PYTHONHASHSEED=42.
        BlockHasher hasher = BlockHasher.withPythonHashSeed("42");
        BlockHash parent = null;
        for (int b = 0; b < 4; b++) {
            parent = hasher.hash(parent, all, b * BLOCK, (b + 1) * BLOCK, null);
            assertThat(sink.storedHashes().get(b)).isEqualTo(parent);
        }
        assertThat(sink.steps).hasSize((int) engine.stats().steps());
        assertThat(sink.removed).isEmpty();
    }

    @Test
    void evictsLeastRecentlyUsedFirstAndTailBlocksBeforeTheirPrefix() {
        RecordingSink sink = new RecordingSink();
        // 8 usable blocks: four 2-block prompts fill the cache.
        Engine engine = new Engine(config(9), sink, new SplittableRandom(1));
        long t = 0;
        int[][] prompts = new int[7][];
        for (int i = 0; i < 4; i++) {
            prompts[i] = prompt(32, 100 + i);
            run(engine, request("r" + i, prompts[i], 1), t += 1_000_000_000L);
        }
        BlockHash[] hash = sink.storedHashes().toArray(BlockHash[]::new); // r0: 0,1  r1: 2,3  r2: 4,5  r3: 6,7
        assertThat(hash).hasSize(8);
        assertThat(engine.stats().cachedBlocks()).isEqualTo(8);

        // r0 again: its first block hits and becomes recently used; its second block is the LRU head and is reused.
        assertThat(run(engine, request("r0-again", prompts[0], 1), t += 1_000_000_000L).cachedTokens()).isEqualTo(16);
        assertThat(sink.removed).containsExactly(hash[1]);

        // Two new prompts take four blocks: the least recently used ones, each request's tail block first.
        run(engine, request("n1", prompt(32, 201), 1), t += 1_000_000_000L);
        run(engine, request("n2", prompt(32, 202), 1), t += 1_000_000_000L);

        assertThat(sink.removed).containsExactly(hash[1], hash[3], hash[2], hash[5], hash[4]);
        assertThat(engine.cachedPrefixTokens(prompts[0], null, null)).isEqualTo(16);
        assertThat(engine.cachedPrefixTokens(prompts[1], null, null)).isZero();
        assertThat(engine.cachedPrefixTokens(prompts[2], null, null)).isZero();
        assertThat(engine.cachedPrefixTokens(prompts[3], null, null)).isEqualTo(16);
    }

    @Test
    void resetOnlyWhenNoBlockIsHeld() {
        RecordingSink sink = new RecordingSink();
        Engine engine = new Engine(config(1000), sink, new SplittableRandom(1));
        int[] p = prompt(64, 1);
        engine.submit(request("long", p, 100), 0, new RecordingObserver());
        engine.advanceTo(50_000_000L);

        assertThat(engine.resetPrefixCache()).isFalse();
        assertThat(sink.cleared).isZero();

        runUntilIdle(engine);
        assertThat(engine.resetPrefixCache()).isTrue();
        assertThat(sink.cleared).isEqualTo(1);
        assertThat(engine.stats().cachedBlocks()).isZero();
        assertThat(engine.cachedPrefixTokens(p, null, null)).isZero();
    }
}
