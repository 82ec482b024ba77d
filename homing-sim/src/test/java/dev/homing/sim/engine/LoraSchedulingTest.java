package dev.homing.sim.engine;

import static dev.homing.sim.engine.Engines.config;
import static dev.homing.sim.engine.Engines.prompt;
import static dev.homing.sim.engine.Engines.request;
import static dev.homing.sim.engine.Engines.runUntilIdle;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LoraSchedulingTest {

    private static final long MS = 1_000_000L;

    @Test
    void aRequestForAnotherAdapterWaitsWhileLaterOnesAreAdmitted() {
        Engine engine = new Engine(config(1000).withMaxLoras(1), KvEventSink.NONE, new SplittableRandom(1));
        RecordingObserver a = new RecordingObserver();
        RecordingObserver b = new RecordingObserver();
        RecordingObserver base = new RecordingObserver();
        RecordingObserver a2 = new RecordingObserver();
        engine.submit(request("a", prompt(20, 1), 5).withLora("adapter-a", 1), 0, a);
        engine.submit(request("b", prompt(20, 2), 5).withLora("adapter-b", 2), 0, b);
        engine.submit(request("base", prompt(20, 3), 5), 0, base);
        engine.submit(request("a2", prompt(20, 4), 5).withLora("adapter-a", 1), 0, a2);
        engine.advanceTo(0);

        EngineStats stats = engine.stats();
        assertThat(stats.running()).isEqualTo(3);
        assertThat(stats.runningLoras()).containsExactly("adapter-a");
        assertThat(stats.waitingLoras()).containsExactly("adapter-b");

        runUntilIdle(engine);
        // b starts only once no adapter-a request runs any more, after the others despite arriving before two of them.
        assertThat(b.firstTokenNanos).isGreaterThan(a.finishNanos - 1).isGreaterThan(a2.finishNanos - 1);
        assertThat(base.firstTokenNanos).isLessThan(b.firstTokenNanos);
        assertThat(List.of(a, b, base, a2)).allSatisfy(o -> assertThat(o.tokens).hasSize(5));
    }

    @Test
    void withoutALoraLimitAdaptersMix() {
        Engine engine = new Engine(config(1000).withMaxLoras(2), KvEventSink.NONE, new SplittableRandom(1));
        engine.submit(request("a", prompt(20, 1), 5).withLora("adapter-a", 1), 0, new RecordingObserver());
        engine.submit(request("b", prompt(20, 2), 5).withLora("adapter-b", 2), 0, new RecordingObserver());
        engine.advanceTo(0);
        assertThat(engine.stats().runningLoras()).containsExactly("adapter-a", "adapter-b");
        assertThat(engine.stats().waitingLoras()).isEmpty();
    }

    @Test
    void storedBlocksCarryTheLoraAndTheSaltWhereVllmPutsThem() {
        RecordingSink sink = new RecordingSink();
        Engine engine = new Engine(config(1000), sink, new SplittableRandom(1));
        engine.submit(request("a", prompt(48, 7), 1).withLora("sql", 4).withCacheSalt("tenant"), 0,
                new RecordingObserver());
        runUntilIdle(engine);

        StoredBlocks stored = sink.stored.getFirst();
        assertThat(stored.loraName()).isEqualTo("sql");
        assertThat(stored.loraId()).isEqualTo(4);
        assertThat(stored.extraKeys()).containsExactly(List.of("sql", "tenant"), List.of("sql"), List.of("sql"));

        RecordingSink plain = new RecordingSink();
        Engine other = new Engine(config(1000), plain, new SplittableRandom(1));
        other.submit(request("b", prompt(32, 7), 1), 0, new RecordingObserver());
        runUntilIdle(other);
        List<List<Object>> none = new ArrayList<>();
        none.add(null);
        none.add(null);
        assertThat(plain.stored.getFirst().extraKeys()).isEqualTo(none);
        assertThat(plain.stored.getFirst().loraId()).isZero();
    }

    @Test
    void observersHearTheFirstAdmissionOnceAndStepsHearTheirTokens() {
        List<int[]> steps = new ArrayList<>();
        Engine engine = new Engine(config(3).withMaxNumBatchedTokens(16), KvEventSink.NONE,
                (start, end, tokens, running) -> steps.add(new int[] {tokens, running}), new SplittableRandom(1));
        RecordingObserver o = new RecordingObserver();
        engine.submit(request("a", prompt(20, 1), 3), 5 * MS, o);
        runUntilIdle(engine);

        assertThat(o.scheduled).containsExactly(5 * MS);
        // 20 prompt tokens in chunks of 16 and 4, then two decode steps of one token each.
        assertThat(steps).extracting(s -> s[0]).containsExactly(16, 4, 1, 1);
        assertThat(steps).extracting(s -> s[1]).containsOnly(1);
    }
}
