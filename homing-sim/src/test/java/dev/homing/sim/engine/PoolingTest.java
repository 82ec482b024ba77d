package dev.homing.sim.engine;

import static dev.homing.sim.engine.Engines.BLOCK;
import static dev.homing.sim.engine.Engines.config;
import static dev.homing.sim.engine.Engines.engine;
import static dev.homing.sim.engine.Engines.prompt;
import static dev.homing.sim.engine.Engines.request;
import static dev.homing.sim.engine.Engines.runUntilIdle;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Embeddings: a pooling request costs its prefill and no decode, and shares the prefix cache. */
class PoolingTest {

    private static SimRequest pooling(String id, int[] prompt) {
        return SimRequest.pooling(id, prompt, null, 0, null);
    }

    @ParameterizedTest(name = "{0} prompt tokens")
    @ValueSource(ints = {1, 16, 100, 600})
    void aPoolingRequestEndsWithItsPrefillAndGeneratesNothing(int length) {
        Engine engine = engine(config(1000));
        RecordingObserver o = new RecordingObserver();
        engine.submit(pooling("e", prompt(length, length)), 0, o);
        long end = runUntilIdle(engine);
        assertThat(o.reason).isEqualTo(FinishReason.STOP);
        assertThat(o.tokens).isEmpty();
        assertThat(o.usage).isEqualTo(new Usage(length, 0, 0));
        assertThat(o.firstTokenNanos).isEqualTo(o.finishNanos).isEqualTo(end);
        EngineStats s = engine.stats();
        assertThat(s.generationTokens()).isZero();
        assertThat(s.promptTokens()).isEqualTo(length);
        assertThat(s.usedBlocks()).isZero(); // its blocks are freed, and stay cached
    }

    @Test
    void itTakesTheTimeOfTheSamePromptsPrefillWithoutTheDecodeSteps() {
        int[] p = prompt(300, 9);
        Engine pooled = engine(config(1000));
        RecordingObserver e = new RecordingObserver();
        pooled.submit(pooling("e", p), 0, e);
        runUntilIdle(pooled);

        Engine generating = engine(config(1000));
        RecordingObserver g = new RecordingObserver();
        generating.submit(request("g", p, 50), 0, g);
        runUntilIdle(generating);

        assertThat(e.finishNanos).isEqualTo(g.firstTokenNanos); // the same prefill
        assertThat(g.finishNanos).isGreaterThan(e.finishNanos); // then 49 decode steps the embedding never pays
        assertThat(pooled.stats().steps()).isLessThan(generating.stats().steps());
    }

    @Test
    void aRepeatedInputHitsThePrefixCache() {
        Engine engine = engine(config(1000));
        int[] p = prompt(100, 4);
        RecordingObserver first = new RecordingObserver();
        engine.submit(pooling("a", p), 0, first);
        runUntilIdle(engine);
        RecordingObserver second = new RecordingObserver();
        engine.submit(pooling("b", p), 1_000_000_000L, second);
        runUntilIdle(engine);
        assertThat(first.usage.cachedTokens()).isZero();
        assertThat(second.usage.cachedTokens()).isEqualTo((100 - 1) / BLOCK * BLOCK);
    }

    @Test
    void aPromptMayFillTheWholeContextButNotMore() {
        Engine engine = engine(config(1000));
        int maxLen = engine.config().maxModelLen();
        RecordingObserver o = new RecordingObserver();
        engine.submit(pooling("full", prompt(maxLen, 1)), 0, o);
        runUntilIdle(engine);
        assertThat(o.reason).isEqualTo(FinishReason.STOP);
        assertThatThrownBy(() -> engine.submit(pooling("over", prompt(maxLen + 1, 1)), 0, new RecordingObserver()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SimRequest.of("neg", prompt(4, 1), -1, Engines.steady()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
