package dev.homing.core.plugins.scorer;

import static dev.homing.core.fixtures.Pools.metrics;
import static dev.homing.core.fixtures.Pools.scrape;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.Cycles;
import dev.homing.core.fixtures.Pools;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunningRequestsSizeScorerTest {

    private final RunningRequestsSizeScorer scorer = new RunningRequestsSizeScorer(null);

    @Test
    void minMaxOverRunningRequests() {
        EndpointPool pool = Pools.of(3);
        scrape(pool, "pod-0", metrics(9, 2, 0));
        scrape(pool, "pod-1", metrics(0, 6, 0));
        scrape(pool, "pod-2", metrics(0, 10, 0));
        // (10 − r) / (10 − 2): the waiting queue plays no part
        assertThat(scorer.score(Cycles.of(pool), Pools.states(pool))).containsExactly(1.0, 0.5, 0.0);
    }

    @Test
    void equalCountsAllScoreOne() {
        EndpointPool pool = Pools.of(2);
        scrape(pool, "pod-0", metrics(0, 4, 0));
        scrape(pool, "pod-1", metrics(7, 4, 0.9));
        assertThat(scorer.score(Cycles.of(pool), Pools.states(pool))).containsExactly(1.0, 1.0);
    }

    @Test
    void unscrapedEndpointsCountAsRunningNothing() {
        EndpointPool pool = Pools.of(2);
        scrape(pool, "pod-1", metrics(0, 4, 0));
        assertThat(scorer.score(Cycles.of(pool), Pools.states(pool))).containsExactly(1.0, 0.0);
        assertThat(scorer.score(Cycles.of(pool), List.of())).isEmpty();
        assertThat(scorer.type()).isEqualTo("running-requests-size-scorer");
    }
}
