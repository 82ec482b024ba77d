package dev.homing.router.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.router.fixtures.SteadyLoad;
import dev.homing.router.fixtures.TestCluster;
import dev.homing.sim.engine.CostModel;
import dev.homing.sim.engine.EngineConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * One pod ten times slower than the others (prefill, decode and overhead alike: a throttled GPU, a noisy neighbour),
 * under steady load with streams: it answers, so it is not ejected, but the load it keeps (its queue, the requests in
 * flight there) sends the newcomers elsewhere, so it serves less than either fast pod, and nothing is lost.
 */
class SlowPodIT {

    /** The CPU preset's cost model, ten times slower (see {@code Preset.CPU_QWEN2_5_0_5B}). */
    private static final EngineConfig SLOW = new EngineConfig(16, 21_845, 128, 2048, 32_768,
            new CostModel(0, 15_000_000, 11_486, 200_000_000, 2460, 50_000_000, 0, 0, 0, 1), null);

    @Test
    void aSlowPodServesLessAndCostsNothing() throws Exception {
        try (TestCluster cluster = TestCluster.start(3, b -> b.build().podName().equals("pod-2") ? b.engine(SLOW) : b,
                o -> o)) {
            SteadyLoad load = SteadyLoad.start(cluster.url("/v1/completions"), 6, 240,
                    SteadyLoad.completions(TestCluster.MODEL, 8, 16));
            SteadyLoad.Tally t = SteadyLoad.Tally.of(load.finish(Duration.ofSeconds(120)));
            long[] tokens = cluster.pods().stream().mapToLong(p -> p.stats().generationTokens()).toArray();
            FaultReport.line("pod-slow", t, FaultReport.retried(cluster.http(), cluster.adminUrl(""), null),
                    String.format("generated tokens: pod-0 %d, pod-1 %d, slow pod-2 %d", tokens[0], tokens[1],
                            tokens[2]));
            assertThat(t.lost()).as("lost: %s", t.lostWhy()).isZero();
            assertThat(t.failed()).isZero();
            assertThat(t.cut()).isZero();
            assertThat(tokens[2]).isLessThan(Math.min(tokens[0], tokens[1]));
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.routerInFlight() == 0);
        }
    }
}
