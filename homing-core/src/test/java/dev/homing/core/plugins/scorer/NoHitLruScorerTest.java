package dev.homing.core.plugins.scorer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.Cycles;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.ProfileResult;
import dev.homing.core.framework.scheduling.SchedulingResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NoHitLruScorerTest {

    private final EndpointPool pool = Pools.of(3);
    private final NoHitLruScorer scorer = new NoHitLruScorer(null, 1024);

    private void pickedCold(String pod) {
        Cycle c = Cycles.withPrefix(pool, 4, 0, 0, 0);
        List<EndpointState> all = Pools.states(pool);
        scorer.score(c, all);
        EndpointState target = pool.snapshot().get(pod);
        ProfileResult r = new ProfileResult("default", List.of(), all, List.of(), new double[3], List.of(target));
        scorer.preRequest(c, new SchedulingResult(Map.of("default", r), "default"));
    }

    @Test
    void neverUsedEndpointsFirstInCandidateOrder() {
        double[] s = scorer.score(Cycles.withPrefix(pool, 4, 0, 0, 0), Pools.states(pool));
        assertThat(s).containsExactly(1.0, 0.5, 0.0);
    }

    @Test
    void usedEndpointsFollowFromLeastToMostRecent() {
        pickedCold("pod-0");
        pickedCold("pod-2");
        // never used: pod-1 (rank 0); then pod-0 (older, rank 1), pod-2 (newest, rank 2)
        double[] s = scorer.score(Cycles.withPrefix(pool, 4, 0, 0, 0), Pools.states(pool));
        assertThat(s[1]).isEqualTo(1.0);
        assertThat(s[0]).isCloseTo(0.5, within(1e-12));
        assertThat(s[2]).isEqualTo(0.0);
    }

    @Test
    void warmRequestsAreNeutralAndDoNotTouchTheOrder() {
        assertThat(scorer.score(Cycles.withPrefix(pool, 4, 0, 2, 0), Pools.states(pool))).containsExactly(0.5, 0.5, 0.5);
        Cycle warm = Cycles.withPrefix(pool, 4, 0, 2, 0);
        scorer.score(warm, Pools.states(pool));
        List<EndpointState> all = Pools.states(pool);
        ProfileResult r = new ProfileResult("default", List.of(), all, List.of(), new double[3], List.of(all.get(0)));
        scorer.preRequest(warm, new SchedulingResult(Map.of("default", r), "default"));
        assertThat(scorer.score(Cycles.withPrefix(pool, 4, 0, 0, 0), Pools.states(pool))).containsExactly(1.0, 0.5, 0.0);
    }

    @Test
    void noPrefixInformationMeansCold() {
        assertThat(scorer.score(Cycles.of(pool), Pools.states(pool))).containsExactly(1.0, 0.5, 0.0);
    }

    @Test
    void singleAndNoCandidates() {
        List<EndpointState> one = List.of(pool.snapshot().get("pod-1"));
        assertThat(scorer.score(Cycles.of(pool), one)).containsExactly(1.0);
        assertThat(scorer.score(Cycles.of(pool), List.of())).isEmpty();
    }

    @Test
    void sizeMustBePositive() {
        assertThatThrownBy(() -> new NoHitLruScorer(null, 0)).isInstanceOf(PluginConfigException.class);
    }
}
