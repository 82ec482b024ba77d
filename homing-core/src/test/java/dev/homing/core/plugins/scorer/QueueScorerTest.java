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

class QueueScorerTest {

    private final QueueScorer scorer = new QueueScorer(null);

    @Test
    void minMaxOverWaitingQueues() {
        EndpointPool pool = Pools.of(3);
        scrape(pool, "pod-0", metrics(0, 1, 0));
        scrape(pool, "pod-1", metrics(5, 1, 0));
        scrape(pool, "pod-2", metrics(10, 1, 0));
        double[] s = scorer.score(Cycles.of(pool), Pools.states(pool));
        assertThat(s[0]).isEqualTo(1.0);
        assertThat(s[1]).isCloseTo(0.5, within(1e-12));
        assertThat(s[2]).isEqualTo(0.0);
    }

    @Test
    void equalQueuesAllScoreOne() {
        EndpointPool pool = Pools.of(2);
        scrape(pool, "pod-0", metrics(4, 1, 0));
        scrape(pool, "pod-1", metrics(4, 9, 0));
        assertThat(scorer.score(Cycles.of(pool), Pools.states(pool))).containsExactly(1.0, 1.0);
    }

    @Test
    void missingMetricsCountAsEmptyQueues() {
        EndpointPool pool = Pools.of(2);
        scrape(pool, "pod-1", metrics(3, 1, 0));
        assertThat(scorer.score(Cycles.of(pool), Pools.states(pool))).containsExactly(1.0, 0.0);
    }

    @Test
    void emptyCandidateListGivesNoScores() {
        assertThat(scorer.score(Cycles.of(Pools.of(1)), List.of())).isEmpty();
    }

    @Test
    void requestsSentSinceTheScrapeToAQueueingPodCountAsQueued() {
        EndpointPool pool = Pools.of(2);
        scrape(pool, "pod-0", metrics(2, 8, 0));
        scrape(pool, "pod-1", metrics(3, 8, 0));
        pool.load("pod-0").acquire(10, 20);
        pool.load("pod-0").acquire(10, 20);
        double[] s = scorer.score(Cycles.of(pool), Pools.states(pool));
        assertThat(s).containsExactly(0.0, 1.0); // 2 + 2 sent since the scrape vs 3

        scrape(pool, "pod-0", metrics(4, 8, 0)); // the pod now reports them itself: not counted twice
        assertThat(pool.snapshot().get("pod-0").waitingQueueSize()).isEqualTo(4);
    }

    @Test
    void aPodThatWasNotQueueingSeatsNewRequestsSoTheyAreNotCountedAsWaiting() {
        EndpointPool pool = Pools.of(2);
        scrape(pool, "pod-0", metrics(0, 3, 0));
        scrape(pool, "pod-1", metrics(0, 0, 0));
        pool.load("pod-0").acquire(10, 20);
        assertThat(scorer.score(Cycles.of(pool), Pools.states(pool))).containsExactly(1.0, 1.0);
    }

    @Test
    void withoutCreditTheScrapedValueIsAllThatCounts() {
        EndpointPool pool = new EndpointPool(false);
        pool.setEndpoints(Pools.of(2).snapshot().endpoints().stream().map(e -> e.endpoint()).toList());
        scrape(pool, "pod-0", metrics(1, 0, 0));
        scrape(pool, "pod-1", metrics(1, 0, 0));
        pool.load("pod-0").acquire(10, 20);
        assertThat(scorer.score(Cycles.of(pool), Pools.states(pool))).containsExactly(1.0, 1.0);
    }
}
