package dev.homing.core.plugins.scorer;

import static dev.homing.core.fixtures.Pools.metrics;
import static dev.homing.core.fixtures.Pools.scrape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.scheduling.Cycle;
import org.junit.jupiter.api.Test;

class QueueDepthScorerTest {

    private final EndpointPool pool = Pools.of(4);

    private double[] score(QueueDepthScorer s) {
        return s.score(new Cycle(Requests.completion("x"), pool.snapshot(), 0), Pools.states(pool));
    }

    @Test
    void oneWaitingRequestIsNoiseAndALongQueueApproachesZeroOnAnAbsoluteScale() {
        scrape(pool, "pod-0", metrics(0, 4, 0.1));
        scrape(pool, "pod-1", metrics(1, 4, 0.1));
        scrape(pool, "pod-2", metrics(5, 4, 0.1));
        scrape(pool, "pod-3", metrics(41, 4, 0.1));
        double[] s = score(new QueueDepthScorer(null, 4));
        assertThat(s[0]).isEqualTo(1.0);
        assertThat(s[1]).as("a request waiting for the next step").isEqualTo(1.0);
        assertThat(s[2]).isCloseTo(0.5, within(1e-12));
        assertThat(s[3]).isCloseTo(1 / 11.0, within(1e-12));
    }

    @Test
    void aFlickerBetweenZeroAndOneMovesNothingWhereLlmDsMinMaxSwingsAWholeWeight() {
        scrape(pool, "pod-1", metrics(1, 4, 0.1)); // the others 0
        assertThat(score(new QueueDepthScorer(null, 4))).containsOnly(1.0);
        double[] llmd = new QueueScorer(null).score(new Cycle(Requests.completion("x"), pool.snapshot(), 0),
                Pools.states(pool));
        assertThat(llmd[1]).isZero();
        assertThat(llmd[0]).isEqualTo(1.0);
    }

    @Test
    void requestsSentSinceAQueueingScrapeCountAsWaiting() {
        scrape(pool, "pod-0", metrics(3, 4, 0.1));
        pool.load("pod-0").acquire(100, 200);
        pool.load("pod-0").acquire(100, 200);
        assertThat(score(new QueueDepthScorer(null, 4))[0]).isCloseTo(1 / (1 + 4 / 4.0), within(1e-12));
    }

    @Test
    void halfAtMustBePositive() {
        assertThatThrownBy(() -> new QueueDepthScorer(null, 0)).isInstanceOf(PluginConfigException.class)
                .hasMessageContaining("halfAt");
    }
}
