package dev.homing.core.plugins.prefix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.Cycles;
import dev.homing.core.fixtures.Pools;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrefixCacheScorerTest {

    private final PrefixCacheScorer scorer = new PrefixCacheScorer(null);
    private final EndpointPool pool = Pools.of(3);

    @Test
    void matchedOverTotalBlocks() {
        assertThat(scorer.score(Cycles.withPrefix(pool, 4, 4, 1, 0), Pools.states(pool))).containsExactly(1.0, 0.25, 0.0);
    }

    @Test
    void noPrefixInformationOrNoBlocksScoresZero() {
        assertThat(scorer.score(Cycles.of(pool), Pools.states(pool))).containsExactly(0.0, 0.0, 0.0);
        assertThat(scorer.score(Cycles.withPrefix(pool, 0, 0, 0, 0), Pools.states(pool))).containsExactly(0.0, 0.0, 0.0);
        assertThat(scorer.score(Cycles.of(pool), List.of())).isEmpty();
    }
}
