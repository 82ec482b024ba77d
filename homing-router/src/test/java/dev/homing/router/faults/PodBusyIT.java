package dev.homing.router.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.router.fixtures.SteadyLoad;
import dev.homing.router.fixtures.TestCluster;
import dev.homing.sim.http.FailureType;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pod that turns every request away as too busy, beside healthy ones: its 429s and 503s are retried on another pod
 * before any byte reaches the client, within the retry budget, and three in a row eject it (a pod that answers "full"
 * at once looks idle, and would otherwise draw ever more requests). With no budget, the busy answers before its
 * ejection reach the clients.
 */
class PodBusyIT {

    private static SteadyLoad.Tally run(FailureType busy, double budget, String fault) throws Exception {
        try (TestCluster cluster = TestCluster.start(3, b -> b,
                (o, pods) -> o.with(x -> x.retryBudget = budget))) {
            // the last pod turns everything away: restart it with failure injection on the same port
            int port = cluster.pod(2).port();
            var config = cluster.pod(2).config().toBuilder().port(port).failureInjectionRate(100)
                    .failureTypes(List.of(busy)).build();
            cluster.pod(2).close();
            try (var busyPod = dev.homing.sim.http.SimPod.start(config)) {
                SteadyLoad load = SteadyLoad.start(cluster.url("/v1/completions"), 6, 200,
                    SteadyLoad.completions(TestCluster.MODEL, 8, 16));
                SteadyLoad.Tally t = SteadyLoad.Tally.of(load.finish(Duration.ofSeconds(120)));
                double retried = FaultReport.retried(cluster.http(), cluster.adminUrl(""), "pod-2");
                FaultReport.line(fault, t, retried, "budget=" + budget + "% ejected="
                        + cluster.router().podHealth().failing("pod-2"));
                assertThat(t.lost()).as("lost: %s", t.lostWhy()).isZero();
                assertThat(t.cut()).isZero();
                await().atMost(Duration.ofSeconds(10)).until(() -> cluster.routerInFlight() == 0);
                return t;
            }
        }
    }

    @Test
    void serviceUnavailableIsRetriedElsewhereAndEjectsThePod() throws Exception {
        SteadyLoad.Tally t = run(FailureType.SERVER_ERROR, 20, "pod-busy-503");
        assertThat(t.errors()).as("every 503 was retried on a healthy pod").isEmpty();
        assertThat(t.answered()).isEqualTo(t.sent());
    }

    @Test
    void tooManyRequestsIsRetriedElsewhereWithinTheBudget() throws Exception {
        SteadyLoad.Tally t = run(FailureType.RATE_LIMIT, 20, "pod-busy-429");
        // six clients keep at most six requests under way, and the budget's floor is three retries at once: a 429 that
        // found it spent would be relayed, but ejection keeps the pod from drawing that many
        assertThat(t.errors()).isEmpty();
        assertThat(t.answered()).isEqualTo(t.sent());
    }

    @Test
    void withoutABudgetBusyAnswersReachTheClient() throws Exception {
        SteadyLoad.Tally t = run(FailureType.RATE_LIMIT, 0, "pod-busy-429-no-budget");
        assertThat(t.errors()).containsKey(429);
        assertThat(t.errors().get(429)).as("until it was ejected").isLessThan(t.sent() / 4);
    }
}
