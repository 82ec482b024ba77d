package dev.homing.core.plugins.scorer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.Lease;
import dev.homing.core.fixtures.Cycles;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.framework.plugin.PluginConfigException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ActiveRequestScorerTest {

    private final EndpointPool pool = Pools.of(3);

    private void inFlight(String pod, int n) {
        for (int i = 0; i < n; i++) {
            pool.load(pod).acquire(1, 1);
        }
    }

    @Test
    void idleScoresOneAndBusyScalesAgainstTheBusiest() {
        inFlight("pod-1", 2);
        inFlight("pod-2", 4);
        double[] s = new ActiveRequestScorer(null, 0, 1.0).score(Cycles.of(pool), Pools.states(pool));
        assertThat(s[0]).isEqualTo(1.0);
        assertThat(s[1]).isCloseTo(0.5, within(1e-12));
        assertThat(s[2]).isEqualTo(0.0);
    }

    @Test
    void idleThresholdAndMaxBusyScore() {
        inFlight("pod-0", 1);
        inFlight("pod-1", 2);
        inFlight("pod-2", 4);
        double[] s = new ActiveRequestScorer(null, 1, 0.5).score(Cycles.of(pool), Pools.states(pool));
        assertThat(s[0]).isEqualTo(1.0);
        assertThat(s[1]).isCloseTo(0.25, within(1e-12));
        assertThat(s[2]).isEqualTo(0.0);
    }

    @Test
    void countsDropWhenRequestsEnd() {
        Lease l = pool.load("pod-0").acquire(1, 1);
        ActiveRequestScorer scorer = new ActiveRequestScorer(null, 0, 1.0);
        assertThat(scorer.score(Cycles.of(pool), Pools.states(pool))).containsExactly(0.0, 1.0, 1.0);
        l.close();
        assertThat(scorer.score(Cycles.of(pool), Pools.states(pool))).containsExactly(1.0, 1.0, 1.0);
        assertThat(scorer.score(Cycles.of(pool), List.of())).isEmpty();
    }

    @Test
    void otherReplicasRequestsCountAsInFlight() {
        inFlight("pod-0", 1);
        pool.load("pod-1").setRemote(3, 30);
        double[] s = new ActiveRequestScorer(null, 0, 1.0).score(Cycles.of(pool), Pools.states(pool));
        assertThat(s[0]).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(s[1]).isEqualTo(0.0);
        assertThat(s[2]).isEqualTo(1.0);
    }

    @Test
    void parametersAreChecked() {
        assertThatThrownBy(() -> new ActiveRequestScorer(null, -1, 1)).isInstanceOf(PluginConfigException.class);
        assertThatThrownBy(() -> new ActiveRequestScorer(null, 0, 1.5)).isInstanceOf(PluginConfigException.class);
    }
}
