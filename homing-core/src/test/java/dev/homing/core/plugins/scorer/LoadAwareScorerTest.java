package dev.homing.core.plugins.scorer;

import static dev.homing.core.fixtures.Pools.metrics;
import static dev.homing.core.fixtures.Pools.scrape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.Cycles;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.framework.plugin.PluginConfigException;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoadAwareScorerTest {

    @Test
    void emptyQueueScoresHalfAndAQueueScalesDownToZeroAtTheThreshold() {
        EndpointPool pool = Pools.of(4);
        scrape(pool, "pod-0", metrics(0, 9, 0.9));
        scrape(pool, "pod-1", metrics(32, 0, 0));
        scrape(pool, "pod-2", metrics(128, 0, 0));
        scrape(pool, "pod-3", metrics(500, 0, 0));
        double[] s = new LoadAwareScorer(null, 128).score(Cycles.of(pool), Pools.states(pool));
        assertThat(s[0]).isEqualTo(0.5);
        assertThat(s[1]).isCloseTo(0.375, within(1e-12)); // 0.5 · (1 − 32/128)
        assertThat(s[2]).isEqualTo(0.0);
        assertThat(s[3]).isEqualTo(0.0); // capped at the threshold
    }

    @Test
    void thresholdIsAParameter() {
        EndpointPool pool = Pools.of(2);
        scrape(pool, "pod-0", metrics(64, 0, 0));
        scrape(pool, "pod-1", metrics(1, 0, 0));
        double[] s = new LoadAwareScorer(null, 100).score(Cycles.of(pool), Pools.states(pool));
        assertThat(s[0]).isCloseTo(0.18, within(1e-12)); // 0.5 · (1 − 0.64)
        assertThat(s[1]).isCloseTo(0.495, within(1e-12)); // 0.5 · (1 − 0.01)
    }

    @Test
    void unscrapedEndpointsAndNoCandidates() {
        EndpointPool pool = Pools.of(2);
        LoadAwareScorer scorer = new LoadAwareScorer(null, 128);
        assertThat(scorer.score(Cycles.of(pool), Pools.states(pool))).containsExactly(0.5, 0.5);
        assertThat(scorer.score(Cycles.of(pool), List.of())).isEmpty();
    }

    @Test
    void requestsSentSinceTheScrapeToAQueueingPodCount() {
        EndpointPool pool = Pools.of(1);
        scrape(pool, "pod-0", metrics(30, 0, 0));
        pool.load("pod-0").acquire(10, 20);
        pool.load("pod-0").acquire(10, 20);
        // 30 + 2 waiting: 0.5 · (1 − 32/128)
        assertThat(new LoadAwareScorer(null, 128).score(Cycles.of(pool), Pools.states(pool))[0])
                .isCloseTo(0.375, within(1e-12));
    }

    @Test
    void thresholdMustBePositive() {
        assertThatThrownBy(() -> new LoadAwareScorer(null, 0))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'threshold'");
    }
}
