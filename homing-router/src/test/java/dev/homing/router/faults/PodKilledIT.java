package dev.homing.router.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.router.fixtures.SteadyLoad;
import dev.homing.router.fixtures.TestCluster;
import dev.homing.sim.http.SimPod;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A pod killed mid-burst under steady load with streams, then restarted on its port: it is ejected at once (its
 * connections refused: three failures in a row take milliseconds under load), costs no retry after that (its
 * {@code /health} probes fail, so it does not come back on probation), every request that had not begun streaming is
 * answered by another pod, the streams it was serving end with an error event rather than silently, and once it is
 * back a probe readmits it.
 */
class PodKilledIT {

    private static final int CLIENTS = 6;

    @Test
    void aKilledPodIsEjectedAndCostsNothingThenComesBack() throws Exception {
        try (TestCluster cluster = TestCluster.start(3)) {
            var health = cluster.router().podHealth();
            SteadyLoad load = SteadyLoad.start(cluster.url("/v1/completions"), CLIENTS, 100_000,
                    SteadyLoad.completions(TestCluster.MODEL, 8, 16));
            load.awaitStarted(60, Duration.ofSeconds(60));
            SimPod victim = cluster.pod(2);
            int port = victim.port();
            long killed = System.nanoTime();
            victim.close();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                    .until(() -> !health.routable("pod-2"));
            double ejectedMs = (System.nanoTime() - killed) / 1e6;
            double retriedAtEjection = FaultReport.retried(cluster.http(), cluster.adminUrl(""), "pod-2");
            int sentAtEjection = load.started();
            // well past the first ejection's 1 s
            load.awaitStarted(sentAtEjection + 150, Duration.ofSeconds(60));
            double retriedAfter = FaultReport.retried(cluster.http(), cluster.adminUrl(""), "pod-2")
                    - retriedAtEjection;
            assertThat(health.routable("pod-2")).as("still out: no probe has answered").isFalse();

            SimPod back = SimPod.start(victim.config().toBuilder().port(port).build());
            try {
                long restarted = System.nanoTime();
                await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(10))
                        .until(() -> health.routable("pod-2"));
                double readmittedMs = (System.nanoTime() - restarted) / 1e6;
                await().atMost(Duration.ofSeconds(15)).until(() -> back.stats().promptTokens() > 0);
                SteadyLoad.Tally t = SteadyLoad.Tally.of(load.stop(Duration.ofSeconds(60)));
                double retried = FaultReport.retried(cluster.http(), cluster.adminUrl(""), null);
                FaultReport.line("pod-killed", t, retried, String.format(
                        "ejectedMs=%.0f retriesToItBeforeEjection=%.0f retriesToItAfter=%.0f readmittedMs=%.0f",
                        ejectedMs, retriedAtEjection, retriedAfter, readmittedMs));
                assertThat(t.lost()).as("lost: %s", t.lostWhy()).isZero();
                assertThat(t.cut()).as("a stream broken off ends with an error event, not silently").isZero();
                assertThat(t.errors()).as("no request that had not begun streaming failed").isEmpty();
                assertThat(retriedAfter).as("requests in flight at the ejection at most").isLessThanOrEqualTo(CLIENTS);
                await().atMost(Duration.ofSeconds(10)).until(() -> cluster.routerInFlight() == 0);
            } finally {
                back.close();
            }
        }
    }
}
