package dev.homing.router.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.router.fixtures.SteadyLoad;
import dev.homing.router.fixtures.TestCluster;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A pod that still accepts connections but never answers again (a wedged process, a partition that drops replies),
 * under steady load with streams: nothing tells it apart but time. The requests it holds end at the response timeout
 * (504) and its streams at the idle timeout (an error event), never hanging a client; its scrapes and probes time out
 * too, so within a few seconds it is no candidate, and nothing is lost.
 */
class PodSilentIT {

    @Test
    void aPodThatNeverAnswersCostsOnlyItsTimeoutsAndIsLeftOut() throws Exception {
        try (ProxiedPod p = ProxiedPod.start(3, b -> b, o -> {
            o.responseTimeout = Duration.ofSeconds(3);
            o.idleTimeout = Duration.ofSeconds(3);
        })) {
            TestCluster cluster = p.cluster;
            var health = cluster.router().podHealth();
            SteadyLoad load = SteadyLoad.start(cluster.url("/v1/completions"), 6, 100_000,
                    SteadyLoad.completions(TestCluster.MODEL, 8, 16));
            load.awaitStarted(60, Duration.ofSeconds(60));
            long silenced = System.nanoTime();
            p.proxy.hang();
            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(10))
                    .until(() -> !health.routable(p.name));
            double outMs = (System.nanoTime() - silenced) / 1e6;
            load.awaitStarted(load.started() + 150, Duration.ofSeconds(60));
            SteadyLoad.Tally t = SteadyLoad.Tally.of(load.stop(Duration.ofSeconds(60)));
            double retried = FaultReport.retried(cluster.http(), cluster.adminUrl(""), null);
            FaultReport.line("pod-silent", t, retried, String.format("leftOutMs=%.0f stale=%s failing=%s", outMs,
                    health.stale(p.name), health.failing(p.name)));
            assertThat(t.lost()).as("lost: %s", t.lostWhy()).isZero();
            assertThat(t.cut()).as("a stalled stream ends with an error event").isZero();
            assertThat(t.errors().keySet()).as("only the requests it held, at their timeout").isSubsetOf(504);
            assertThat(health.routable(p.name)).isFalse();
            await().atMost(Duration.ofSeconds(10)).until(() -> cluster.routerInFlight() == 0);
        }
    }
}
