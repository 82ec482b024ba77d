package dev.homing.core.plugins.scorer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.Lease;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PrefixMatch;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrefillLoadScorerTest {

    private final EndpointPool pool = Pools.of(3);
    private final PrefillLoadScorer scorer = new PrefillLoadScorer(null);

    /** A 320-token prompt (20 blocks of 16) of which pod i holds {@code matched[i]} blocks. */
    private Cycle cycle(int... matched) {
        Cycle c = new Cycle(Requests.tokens(320), pool.snapshot(), 0);
        if (matched.length > 0) {
            c.put(PrefixMatch.KEY, new PrefixMatch(matched, 20, 16));
        }
        return c;
    }

    @Test
    void aBusyHomeLosesToAnIdlePodThatHoldsLess() {
        Lease backlog = pool.load("pod-0").acquire(1000, 1200);
        // cost: pod-0 1000 pending + 0 uncached, pod-1 0 + 320, pod-2 0 + 160; min 160, max 1000
        double[] s = scorer.score(cycle(20, 0, 10), Pools.states(pool));
        assertThat(s[0]).isCloseTo(1 - 840 / 1000.0, within(1e-12));
        assertThat(s[1]).isCloseTo(1 - 160 / 1000.0, within(1e-12));
        assertThat(s[2]).isEqualTo(1.0);

        backlog.prefillDone(); // pod-0 answered: it is the cheapest again
        s = scorer.score(cycle(20, 0, 10), Pools.states(pool));
        assertThat(s[0]).isEqualTo(1.0);
        assertThat(s[1]).isCloseTo(0.0, within(1e-12));
        assertThat(s[2]).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void withoutAPrefixMatchTheWholePromptIsUncachedEverywhere() {
        pool.load("pod-2").acquire(320, 400);
        double[] s = scorer.score(cycle(), Pools.states(pool));
        assertThat(s).containsExactly(1.0, 1.0, 0.5);
    }

    @Test
    void equalCostsScoreOneAndNoCandidatesNoScores() {
        assertThat(scorer.score(cycle(0, 0, 0), Pools.states(pool))).containsExactly(1.0, 1.0, 1.0);
        assertThat(scorer.score(cycle(20, 20, 20), Pools.states(pool))).containsExactly(1.0, 1.0, 1.0);
        assertThat(scorer.score(cycle(), List.of())).isEmpty();
    }
}
