package dev.homing.router.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.router.fixtures.SteadyLoad;
import dev.homing.router.fixtures.TestCluster;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A pod whose {@code /metrics} fails while it still serves: once its last metrics are older than the staleness limit
 * it is no candidate (llm-d's saturation detector counts such a pod saturated), because its queue and cache could be
 * anything by then; requests go to the others, none is lost; once its scrapes answer again it is a candidate again.
 */
class ScrapeFailingIT {

    @Test
    void aPodWithStaleMetricsIsLeftOutUntilItsMetricsAreFresh() throws Exception {
        try (ProxiedPod p = ProxiedPod.start(3, b -> b, o -> { })) {
            TestCluster cluster = p.cluster;
            var health = cluster.router().podHealth();
            SteadyLoad load = SteadyLoad.start(cluster.url("/v1/completions"), 6, 100_000,
                    SteadyLoad.completions(TestCluster.MODEL, 8, 16));
            load.awaitStarted(40, Duration.ofSeconds(60));
            long broken = System.nanoTime();
            p.proxy.failScrapes(true);
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                    .until(() -> health.stale(p.name));
            double staleMs = (System.nanoTime() - broken) / 1e6;
            assertThat(health.routable(p.name)).isFalse();
            assertThat(health.failing(p.name)).as("it answers its probes: stale, not failing").isFalse();
            load.awaitStarted(load.started() + 60, Duration.ofSeconds(60));
            p.proxy.failScrapes(false);
            long mended = System.nanoTime();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                    .until(() -> health.routable(p.name));
            double backMs = (System.nanoTime() - mended) / 1e6;
            SteadyLoad.Tally t = SteadyLoad.Tally.of(load.stop(Duration.ofSeconds(60)));
            double retried = FaultReport.retried(cluster.http(), cluster.adminUrl(""), null);
            FaultReport.line("scrape-failing", t, retried,
                    String.format("staleAfterMs=%.0f freshAgainMs=%.0f", staleMs, backMs));
            assertThat(t.lost()).as("lost: %s", t.lostWhy()).isZero();
            assertThat(t.failed()).isZero();
            assertThat(t.cut()).isZero();
            await().atMost(Duration.ofSeconds(10)).until(() -> cluster.routerInFlight() == 0);
        }
    }
}
