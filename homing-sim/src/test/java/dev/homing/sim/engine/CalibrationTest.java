package dev.homing.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The Qwen3-32B preset reproduces what llm-d's 73 %-capacity run measured (calibration.md §2.4, §5), on the engine's
 * model clock: model time, not wall time, so these are exact properties of the model.
 */
class CalibrationTest {

    private static final double MS = 1e6;

    private static Engine qwen() {
        return new Engine(Preset.QWEN3_32B_H100_TP2.engine().withHashSeed("42"), KvEventSink.NONE,
                new SplittableRandom(1));
    }

    private static double ttftMillis(Engine engine, int[] prompt, long at) {
        RecordingObserver o = new RecordingObserver();
        engine.submit(SimRequest.of("r" + at, prompt, 1, Engines.steady()), at, o);
        Engines.runUntilIdle(engine);
        return (o.firstTokenNanos - at) / MS;
    }

    @Test
    void coldSharedPrefixAndRepeatedPromptsCostWhatLlmdMeasured() {
        Engine engine = qwen();
        int[] system = Engines.prompt(6000, 1);
        int[] cold = concat(system, Engines.prompt(1200, 2));
        int[] sameGroup = concat(system, Engines.prompt(1200, 3));

        double coldTtft = ttftMillis(engine, cold, 0);
        double sharedPrefix = ttftMillis(engine, sameGroup, 10_000_000_000L);
        double repeat = ttftMillis(engine, cold, 20_000_000_000L);

        // Random routing's p90 (0.820 s) is a whole 7,200-token miss: a = 285 ms + 7,200 × 66.6 µs × 1.115.
        assertThat(coldTtft).isCloseTo(820, within(10.0));
        // Same group on the same pod: 1,200 new tokens on a 5,984-token cached prefix ≈ 285 + 97 ms.
        assertThat(sharedPrefix).isCloseTo(382, within(10.0));
        // Precise routing's mean (0.298 s): the whole prompt cached but its last block recomputed in one step.
        assertThat(repeat).isCloseTo(296, within(5.0));
        System.out.printf("qwen3-32b-h100-tp2 TTFT: cold 7,200 tokens %.0f ms, 6,000 cached %.0f ms, repeat %.0f ms%n",
                coldTtft, sharedPrefix, repeat);
    }

    @Test
    void interTokenLatencyGrowsWithTheBatchLikeLlmdsRuns() {
        double one = itlMillis(1);
        double many = itlMillis(38);
        // llm-d: 11 ms at QPS 3 (≈ 1.7 running per pod); at QPS 60, 38 running with ≈ 7,700-token contexts.
        assertThat(one).isCloseTo(11.3, within(0.5));
        assertThat(many).isGreaterThan(one * 2).isLessThan(29);
        System.out.printf("qwen3-32b-h100-tp2 ITL: 1 running %.1f ms, 38 running %.1f ms%n", one, many);
    }

    /**
     * Mean gap between tokens of the first of {@code n} requests with 7,680-token prompts, over ten steps once the
     * last of them has finished its prefill: {@code n} sequences decoding together, nothing else in the steps.
     */
    private static double itlMillis(int n) {
        Engine engine = qwen();
        List<RecordingObserver> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            RecordingObserver o = new RecordingObserver();
            all.add(o);
            engine.submit(SimRequest.of("r" + i, Engines.prompt(7_680, 100 + i), 100, Engines.steady()), 0, o);
        }
        Engines.runUntilIdle(engine);
        long allDecoding = all.getLast().firstTokenNanos;
        List<Long> t = all.getFirst().tokenNanos.stream().filter(x -> x > allDecoding).toList();
        return (t.get(10) - t.get(0)) / 10.0 / MS;
    }

    private static int[] concat(int[] a, int[] b) {
        int[] c = new int[a.length + b.length];
        System.arraycopy(a, 0, c, 0, a.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
