package dev.homing.core.plugins.prefix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.Cycles;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.plugins.prefix.precise.PreciseScores;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrecisePrefixCacheScorerTest {

    private final EndpointPool pool = Pools.of(3);
    private final PrecisePrefixCacheScorer scorer = new PrecisePrefixCacheScorer(null);

    @Test
    void minMaxOverThePodsThatHoldSomething() {
        Cycle c = Cycles.of(pool);
        c.put(PreciseScores.KEY, new PreciseScores(new double[] {0, 4, 2}));
        assertThat(scorer.score(c, Pools.states(pool))).containsExactly(0.0, 1.0, 0.0);
        c.put(PreciseScores.KEY, new PreciseScores(new double[] {3, 3, 0}));
        assertThat(scorer.score(c, Pools.states(pool))).containsExactly(1.0, 1.0, 0.0);
        c.put(PreciseScores.KEY, new PreciseScores(new double[] {1, 3, 2}));
        assertThat(scorer.score(c, Pools.states(pool))).containsExactly(0.0, 1.0, 0.5);
    }

    @Test
    void withoutPreciseScoresTheApproximateShareIsUsedAndNothingScoresZero() {
        assertThat(scorer.score(Cycles.of(pool), Pools.states(pool))).containsExactly(0.0, 0.0, 0.0);
        assertThat(scorer.score(Cycles.withPrefix(pool, 4, 2, 4, 0), Pools.states(pool))).containsExactly(0.5, 1.0, 0.0);
        assertThat(scorer.score(Cycles.of(pool), List.of())).isEmpty();
    }
}
