package dev.homing.sim.engine;

import static dev.homing.sim.engine.Engines.config;
import static dev.homing.sim.engine.Engines.engine;
import static dev.homing.sim.engine.Engines.prompt;
import static dev.homing.sim.engine.Engines.request;
import static dev.homing.sim.engine.Engines.runUntilIdle;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SchedulingTest {

    private static final long MS = 1_000_000L;

    @Test
    void moreCachedTokensMeanALowerTimeToFirstToken() {
        Engine engine = engine(config(1000));
        int[] warm = prompt(400, 1);
        RecordingObserver first = new RecordingObserver();
        engine.submit(request("warm", warm, 1), 0, first);
        runUntilIdle(engine);

        RecordingObserver cached = new RecordingObserver();
        engine.submit(request("cached", warm, 1), 1000 * MS, cached);
        runUntilIdle(engine);
        RecordingObserver cold = new RecordingObserver();
        engine.submit(request("cold", prompt(400, 2), 1), 2000 * MS, cold);
        runUntilIdle(engine);

        long cachedTtft = cached.firstTokenNanos - 1000 * MS;
        long coldTtft = cold.firstTokenNanos - 2000 * MS;
        assertThat(cached.usage.cachedTokens()).isEqualTo(384);
        assertThat(cold.usage.cachedTokens()).isZero();
        assertThat(cachedTtft).isLessThan(coldTtft);
        // 1 ms + max(400 × 100 µs, 10 ms floor) cold; 1 ms + max(16 × 100 µs, 10 ms) with 384 tokens cached.
        assertThat(coldTtft).isEqualTo(41 * MS);
        assertThat(cachedTtft).isEqualTo(11 * MS);
    }

    @Test
    void aBiggerBatchDecodesSlower() {
        EngineConfig config = config(1000).withCost(Engines.simpleCost().withKvReadNanosPerToken(2_000));
        Engine alone = engine(config);
        RecordingObserver solo = new RecordingObserver();
        alone.submit(request("solo", prompt(50, 0), 40), 0, solo);
        runUntilIdle(alone);

        Engine busy = engine(config);
        List<RecordingObserver> batch = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            RecordingObserver o = new RecordingObserver();
            batch.add(o);
            busy.submit(request("b" + i, prompt(50, i), 40), 0, o);
        }
        runUntilIdle(busy);

        assertThat(batch).allSatisfy(o -> assertThat(o.tokens).hasSize(40));
        assertThat(batch.getFirst().meanInterTokenNanos()).isGreaterThan(solo.meanInterTokenNanos());
    }

    @Test
    void computeBoundBatchesGrowWithTheirSize() {
        // Decode compute 2 ms per sequence dominates the 10 ms floor beyond five sequences.
        EngineConfig config = config(1000).withCost(CostModel.simple(0, 2 * MS, 10 * MS, 0));
        long[] itl = new long[3];
        int[] sizes = {1, 8, 16};
        for (int k = 0; k < sizes.length; k++) {
            Engine engine = engine(config);
            RecordingObserver first = new RecordingObserver();
            for (int i = 0; i < sizes[k]; i++) {
                engine.submit(request("r" + i, prompt(16, i), 5), 0, i == 0 ? first : RequestObserver.NONE);
            }
            runUntilIdle(engine);
            itl[k] = first.tokenNanos.get(2) - first.tokenNanos.get(1);
        }
        assertThat(itl).containsExactly(10 * MS, 16 * MS, 32 * MS);
    }

    @Test
    void longPromptsArePrefilledInChunksWhileDecodesContinue() {
        RecordingSink sink = new RecordingSink();
        Engine engine = new Engine(config(1000), sink, new SplittableRandom(1));
        RecordingObserver decoder = new RecordingObserver();
        engine.submit(request("decoder", prompt(10, 1), 200), 0, decoder);
        engine.advanceTo(100 * MS);

        RecordingObserver longPrompt = new RecordingObserver();
        engine.submit(request("long", prompt(1500, 2), 1), 100 * MS, longPrompt);
        runUntilIdle(engine);

        // The step in flight at 100 ms, then 1500 tokens at 511 per step (the budget of 512 less one decode):
        // three steps start after the arrival, each giving the decoder a token, the last also the long prompt's first.
        long arrived = 100 * MS;
        long done = longPrompt.firstTokenNanos;
        assertThat(sink.steps.stream().filter(t -> t > arrived && t < done)).hasSize(3);
        assertThat(decoder.tokenNanos.stream().filter(t -> t > arrived && t <= done)).hasSize(4);
        assertThat(decoder.tokens).hasSize(200);
    }

    @Test
    void maxNumSeqsQueuesTheRestFirstComeFirstServed() {
        Engine engine = engine(config(1000).withMaxNumSeqs(2));
        List<RecordingObserver> obs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            RecordingObserver o = new RecordingObserver();
            obs.add(o);
            engine.submit(request("r" + i, prompt(20, i), 10), 0, o);
        }
        engine.advanceTo(0);

        assertThat(engine.stats().running()).isEqualTo(2);
        assertThat(engine.stats().waiting()).isEqualTo(3);

        runUntilIdle(engine);
        assertThat(obs).allSatisfy(o -> assertThat(o.reason).isEqualTo(FinishReason.LENGTH));
        assertThat(obs.get(2).firstTokenNanos).isGreaterThanOrEqualTo(obs.get(0).finishNanos);
        assertThat(obs.get(4).firstTokenNanos).isGreaterThanOrEqualTo(obs.get(2).finishNanos);
        assertThat(engine.stats().running()).isZero();
        assertThat(engine.stats().waiting()).isZero();
    }

    @Test
    void runningOutOfBlocksPreemptsAndEveryRequestStillCompletes() {
        // 10 usable blocks of 16 = 160 tokens; four requests growing to 80 tokens each cannot all stay resident.
        Engine engine = engine(config(11));
        List<RecordingObserver> obs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            RecordingObserver o = new RecordingObserver();
            obs.add(o);
            engine.submit(request("r" + i, prompt(20, i), 60), 0, o);
        }
        runUntilIdle(engine);

        EngineStats stats = engine.stats();
        assertThat(stats.preemptions()).isPositive();
        assertThat(obs).allSatisfy(o -> {
            assertThat(o.tokens).hasSize(60);
            assertThat(o.reason).isEqualTo(FinishReason.LENGTH);
            assertThat(o.usage).isEqualTo(new Usage(20, 60, 0));
        });
        assertThat(stats.usedBlocks()).isZero();
        assertThat(stats.kvCacheUsage()).isZero();
        assertThat(stats.generationTokens()).isEqualTo(240);
        // New-request queries only: a preempted request's second lookup is not counted again.
        assertThat(stats.prefixCacheQueries()).isEqualTo(80);
    }

    @Test
    void abortFreesBlocksWherever() {
        Engine engine = engine(config(1000).withMaxNumSeqs(1).withCost(Engines.simpleCost()
                .withRequestOverheadNanos(5 * MS)));
        RecordingObserver running = new RecordingObserver();
        RecordingObserver waiting = new RecordingObserver();
        RequestHandle r = engine.submit(request("running", prompt(100, 1), 1000), 0, running);
        RequestHandle w = engine.submit(request("waiting", prompt(100, 2), 1000), 0, waiting);
        engine.advanceTo(60 * MS);
        RecordingObserver arriving = new RecordingObserver();
        RequestHandle a = engine.submit(request("arriving", prompt(100, 3), 1000), 60 * MS, arriving);
        assertThat(engine.stats().usedBlocks()).isPositive();
        assertThat(engine.stats().arriving()).isEqualTo(1);

        assertThat(engine.abort(r)).isTrue();
        assertThat(engine.abort(w)).isTrue();
        assertThat(engine.abort(a)).isTrue();
        assertThat(engine.abort(r)).isFalse();

        assertThat(running.reason).isEqualTo(FinishReason.ABORT);
        assertThat(running.usage.completionTokens()).isEqualTo(running.tokens.size()).isPositive();
        assertThat(waiting.reason).isEqualTo(FinishReason.ABORT);
        assertThat(arriving.reason).isEqualTo(FinishReason.ABORT);
        EngineStats stats = engine.stats();
        assertThat(stats.usedBlocks()).isZero();
        assertThat(stats.running() + stats.waiting() + stats.arriving()).isZero();
        assertThat(stats.finishedAbort()).isEqualTo(3);
        runUntilIdle(engine); // the step in flight ends without delivering anything to the aborted request
        assertThat(running.finishCalls).isEqualTo(1);
    }

    @Test
    void theRequestOverheadDelaysArrival() {
        Engine engine = engine(config(1000).withCost(Engines.simpleCost().withRequestOverheadNanos(7 * MS)));
        RecordingObserver o = new RecordingObserver();
        engine.submit(request("r", prompt(16, 1), 1), 0, o);
        engine.advanceTo(6 * MS);
        assertThat(engine.stats().arriving()).isEqualTo(1);
        assertThat(engine.stats().waiting() + engine.stats().running()).isZero();
        runUntilIdle(engine);
        assertThat(o.firstTokenNanos).isEqualTo(7 * MS + 11 * MS);
    }

    @Test
    void stopsAtEosUnlessIgnoredAndAtMaxModelLen() {
        Engine engine = engine(config(1000).withMaxModelLen(64));
        OutputModel chatty = new RandomTokens(new int[] {5, 6}, 2, 1.0); // EOS at the second position
        RecordingObserver stops = new RecordingObserver();
        RecordingObserver ignores = new RecordingObserver();
        RecordingObserver capped = new RecordingObserver();
        engine.submit(SimRequest.of("eos", prompt(10, 1), 50, chatty), 0, stops);
        engine.submit(SimRequest.of("ignore", prompt(10, 2), 5, chatty).withIgnoreEos(true), 0, ignores);
        engine.submit(request("capped", prompt(60, 3), 100), 0, capped);
        runUntilIdle(engine);

        assertThat(stops.tokens).hasSize(2).endsWith(2);
        assertThat(stops.reason).isEqualTo(FinishReason.STOP);
        assertThat(stops.lastFlagOnFinalToken).isTrue();
        assertThat(ignores.tokens).hasSize(5);
        assertThat(ignores.reason).isEqualTo(FinishReason.LENGTH);
        assertThat(capped.tokens).hasSize(4);
        assertThat(capped.reason).isEqualTo(FinishReason.LENGTH);
        EngineStats stats = engine.stats();
        assertThat(stats.finishedStop()).isEqualTo(1);
        assertThat(stats.finishedLength()).isEqualTo(2);
        assertThat(stats.promptTokens()).isEqualTo(80);
        assertThat(stats.generationTokens()).isEqualTo(11);
    }

    @Test
    void rejectsWhatCanNeverRun() {
        Engine engine = engine(config(5).withMaxModelLen(64));
        assertThatThrownBy(() -> engine.submit(request("long", prompt(64, 1), 1), 0, RequestObserver.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max_model_len is 64");
        // 4 usable blocks hold 64 tokens; 60 + 10 would need 5 blocks.
        Engine small = engine(config(5).withMaxModelLen(1000));
        assertThatThrownBy(() -> small.submit(request("big", prompt(60, 1), 10), 0, RequestObserver.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("KV blocks");
        assertThat(small.stats().arriving()).isZero();
    }

    @Test
    void sameSeedSameRun() {
        assertThat(trace(11)).isEqualTo(trace(11));
        assertThat(trace(11)).isNotEqualTo(trace(12));
    }

    /** Tokens and times of a noisy, randomly-answering, preempting run. */
    private static List<String> trace(long seed) {
        CostModel noisy = Engines.simpleCost().withRequestOverheadNanos(5 * MS).withRequestOverheadStdDevNanos(MS)
                .withPrefillStdDevNanos(MS).withDecodeStdDevNanos(MS).withTimeFactorUnderLoad(2);
        Engine engine = new Engine(config(20).withCost(noisy).withHashSeed(null), KvEventSink.NONE,
                new SplittableRandom(seed));
        OutputModel words = new RandomTokens(new int[] {11, 12, 13, 14, 15}, 2, 0.05);
        List<RecordingObserver> obs = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            RecordingObserver o = new RecordingObserver();
            obs.add(o);
            engine.submit(SimRequest.of("r" + i, prompt(40, i % 3), 60, words), i * 3 * MS, o);
            engine.advanceTo(i * 3 * MS);
        }
        runUntilIdle(engine);
        List<String> out = new ArrayList<>();
        for (RecordingObserver o : obs) {
            out.add(o.tokens + "@" + o.tokenNanos + " " + o.reason + " " + o.usage);
        }
        out.add(engine.stats().toString() + engine.noneHash());
        return out;
    }

    @Test
    void timeNeverRunsBackwards() {
        Engine engine = engine(config(1000));
        engine.advanceTo(100 * MS);
        RecordingObserver o = new RecordingObserver();
        RequestHandle h = engine.submit(request("late", prompt(16, 1), 1), 50 * MS, o);
        assertThat(h.arrivalNanos()).isEqualTo(100 * MS);
        runUntilIdle(engine);
        assertThat(o.firstTokenNanos).isGreaterThan(100 * MS);
    }
}
