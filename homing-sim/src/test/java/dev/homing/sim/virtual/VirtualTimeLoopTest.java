package dev.homing.sim.virtual;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.sim.engine.CostModel;
import dev.homing.sim.engine.EchoTokens;
import dev.homing.sim.engine.Engine;
import dev.homing.sim.engine.EngineConfig;
import dev.homing.sim.engine.FinishReason;
import dev.homing.sim.engine.KvEventSink;
import dev.homing.sim.engine.Preset;
import dev.homing.sim.engine.RequestObserver;
import dev.homing.sim.engine.SimRequest;
import dev.homing.sim.engine.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;

class VirtualTimeLoopTest {

    private static final long MS = 1_000_000L;

    /** What one simulated client saw. */
    record Outcome(String id, int engine, long ttftNanos, long e2eNanos, int cachedTokens, FinishReason reason) {
    }

    /**
     * A cluster of four Qwen3-32B pods (the 73 %-capacity preset) serving 400 requests of 20 shared-prefix groups
     * (a 2,000-token system prompt, a 300-token question, 64 output tokens) arriving as a seeded Poisson process at
     * 12 requests per second. {@code route} picks a pod from the group.
     */
    private static List<Outcome> run(long seed, IntUnaryOperator route) {
        VirtualTimeLoop loop = new VirtualTimeLoop();
        EngineConfig config = Preset.QWEN3_32B_H100_TP2.engine().withHashSeed("42");
        List<Engine> pods = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            pods.add(loop.add(new Engine(config, KvEventSink.NONE, new SplittableRandom(seed * 31 + i))));
        }
        SplittableRandom rng = new SplittableRandom(seed);
        int[][] systemPrompts = new int[20][];
        for (int g = 0; g < systemPrompts.length; g++) {
            systemPrompts[g] = tokens(2000, rng);
        }
        List<Outcome> outcomes = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < 400; i++) {
            t += (long) (-Math.log(1 - rng.nextDouble()) / 12.0 * 1e9);
            int group = rng.nextInt(systemPrompts.length);
            int[] prompt = concat(systemPrompts[group], tokens(300, rng));
            String id = "r" + i;
            int pod = route.applyAsInt(group);
            loop.schedule(t, () -> {
                long submitted = loop.now();
                pods.get(pod).submit(SimRequest.of(id, prompt, 64, new EchoTokens(new int[] {7}, -1, true)),
                        submitted, new RequestObserver() {
                            private long first;

                            @Override
                            public void onFirstToken(long nanos) {
                                first = nanos;
                            }

                            @Override
                            public void onToken(int tokenId, boolean last, long nanos) {
                                assertThat(nanos).isEqualTo(loop.now()); // observers hear the loop's own time
                            }

                            @Override
                            public void onFinish(FinishReason reason, Usage usage, long nanos) {
                                outcomes.add(new Outcome(id, pod, first - submitted, nanos - submitted,
                                        usage.cachedTokens(), reason));
                            }
                        });
            });
        }
        long wallStart = System.nanoTime();
        long end = loop.runUntilIdle();
        long wall = System.nanoTime() - wallStart;
        long steps = pods.stream().mapToLong(e -> e.stats().steps()).sum();
        System.out.printf("virtual time: %,d engine steps, %.1f s simulated in %.3f s of wall time (%,.0f steps/s, "
                + "%.0fx real time)%n", steps, end / 1e9, wall / 1e9, steps / (wall / 1e9), end / (double) wall);
        return outcomes;
    }

    @Test
    void aClusterRunsTheSameForTheSameSeed() {
        List<Outcome> first = run(7, g -> g % 4);
        List<Outcome> again = run(7, g -> g % 4);
        List<Outcome> other = run(8, g -> g % 4);

        assertThat(first).hasSize(400).allSatisfy(o -> assertThat(o.reason()).isEqualTo(FinishReason.LENGTH));
        assertThat(again).isEqualTo(first);
        assertThat(other).isNotEqualTo(first);
    }

    @Test
    void routingByPrefixBeatsRandomRoutingOnTheSameWorkload() {
        SplittableRandom pick = new SplittableRandom(3);
        List<Outcome> affine = run(11, g -> g % 4);
        List<Outcome> random = run(11, g -> pick.nextInt(4));

        long affineCached = affine.stream().mapToLong(Outcome::cachedTokens).sum();
        long randomCached = random.stream().mapToLong(Outcome::cachedTokens).sum();
        double affineTtft = affine.stream().mapToLong(Outcome::ttftNanos).average().orElseThrow();
        double randomTtft = random.stream().mapToLong(Outcome::ttftNanos).average().orElseThrow();
        assertThat(affineCached).isGreaterThan(randomCached);
        assertThat(affineTtft).isLessThan(randomTtft);
    }

    @Test
    void actionsRunInTimeOrderAndBeforeEnginesAtTheSameInstant() {
        VirtualTimeLoop loop = new VirtualTimeLoop(100);
        Engine engine = loop.add(new Engine(Preset.QWEN3_32B_H100_TP2.engine().withCost(
                CostModel.simple(0, 1000, 10 * MS, 0)), KvEventSink.NONE,
                new SplittableRandom(1)));
        List<String> log = new ArrayList<>();
        loop.schedule(300, () -> log.add("b@" + loop.now()));
        loop.schedule(200, () -> log.add("a@" + loop.now()));
        loop.schedule(300, () -> log.add("c@" + loop.now()));
        loop.schedule(200, () -> {
            log.add("submit@" + loop.now());
            engine.submit(SimRequest.of("x", new int[] {1, 2, 3}, 2, new EchoTokens(new int[] {5}, -1, true)),
                    loop.now(), new RequestObserver() {
                        @Override
                        public void onToken(int tokenId, boolean last, long nanos) {
                            log.add("token@" + nanos);
                        }

                        @Override
                        public void onFinish(FinishReason reason, Usage usage, long nanos) {
                            loop.scheduleAfter(0, () -> log.add("after-finish@" + loop.now()));
                        }
                    });
        });

        long end = loop.runUntilIdle();

        long step = 10 * MS;
        assertThat(log).containsExactly("a@200", "submit@200", "b@300", "c@300", "token@" + (200 + step),
                "token@" + (200 + 2 * step), "after-finish@" + (200 + 2 * step));
        assertThat(end).isEqualTo(200 + 2 * step);
        assertThat(loop.actionsRun()).isEqualTo(5);
        assertThat(loop.step()).isFalse();
    }

    @Test
    void theClockNeverGoesBack() {
        VirtualTimeLoop loop = new VirtualTimeLoop();
        loop.runUntil(5 * MS);
        assertThat(loop.now()).isEqualTo(5 * MS);
        assertThatThrownBy(() -> loop.schedule(MS, () -> { })).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> loop.scheduleAfter(-1, () -> { })).isInstanceOf(IllegalArgumentException.class);
        loop.runUntil(MS);
        assertThat(loop.now()).isEqualTo(5 * MS);
        assertThat(loop.clock().getAsLong()).isEqualTo(5 * MS);
    }

    private static int[] tokens(int n, SplittableRandom rng) {
        int[] t = new int[n];
        for (int i = 0; i < n; i++) {
            t[i] = 1000 + rng.nextInt(100_000);
        }
        return t;
    }

    private static int[] concat(int[] a, int[] b) {
        int[] c = new int[a.length + b.length];
        System.arraycopy(a, 0, c, 0, a.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
