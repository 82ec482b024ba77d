package dev.homing.core.plugins.scorer;

import static dev.homing.core.fixtures.Pools.metrics;
import static dev.homing.core.fixtures.Pools.scrape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.Cycles;
import dev.homing.core.fixtures.Pools;
import java.util.List;
import org.junit.jupiter.api.Test;

class KvCacheUtilizationScorerTest {

    private final KvCacheUtilizationScorer scorer = new KvCacheUtilizationScorer(null);

    @Test
    void oneMinusUsageAbsolute() {
        EndpointPool pool = Pools.of(3);
        scrape(pool, "pod-0", metrics(0, 0, 0.25));
        scrape(pool, "pod-1", metrics(0, 0, 0.5));
        scrape(pool, "pod-2", metrics(0, 0, 1.0));
        double[] s = scorer.score(Cycles.of(pool), Pools.states(pool));
        assertThat(s[0]).isCloseTo(0.75, within(1e-12));
        assertThat(s[1]).isCloseTo(0.5, within(1e-12));
        assertThat(s[2]).isEqualTo(0.0);
    }

    @Test
    void unknownUsageScoresAsEmpty() {
        EndpointPool pool = Pools.of(1);
        assertThat(scorer.score(Cycles.of(pool), Pools.states(pool))).containsExactly(1.0);
        assertThat(scorer.score(Cycles.of(pool), List.of())).isEmpty();
    }

    @Test
    void promptTokensSentSinceTheScrapeFillTheCache() {
        EndpointPool pool = Pools.of(2);
        scrape(pool, "pod-0", metrics(0, 0, 0.1)); // capacity 16 x 1000 = 16000 tokens
        scrape(pool, "pod-1", metrics(0, 0, 0.1));
        pool.load("pod-1").acquire(8000, 8100);
        double[] s = scorer.score(Cycles.of(pool), Pools.states(pool));
        assertThat(s[0]).isCloseTo(0.9, within(1e-12));
        assertThat(s[1]).isCloseTo(0.4, within(1e-12));
    }
}
