package dev.homing.core.plugins.scorer;

import static dev.homing.core.fixtures.Pools.metrics;
import static dev.homing.core.fixtures.Pools.scrape;
import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.Cycles;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.framework.plugin.PluginConfigException;
import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyScorerTest {

    private final EndpointPool pool = Pools.of(3);

    private void scrapeAll() {
        scrape(pool, "pod-0", metrics(0, 1, 0.2));
        scrape(pool, "pod-1", metrics(5, 1, 0.5));
        scrape(pool, "pod-2", metrics(10, 1, 0.9));
    }

    @Test
    void compositeOfCacheRoomQueueAndPrefixInHundredths() {
        scrapeAll();
        LatencyScorer scorer = LatencyScorer.create(null, params("{}"), context());
        double[] s = scorer.score(Cycles.withPrefix(pool, 4, 4, 2, 0), Pools.states(pool));
        // (0.8 + 1 + 1)/3 = 0.933 → 0.93; (0.5 + 0.5 + 0.5)/3 = 0.5; (0.1 + 0 + 0)/3 = 0.033 → 0.03
        assertThat(s).containsExactly(0.93, 0.5, 0.03);
    }

    @Test
    void compositeWeightsAreNormalised() {
        scrapeAll();
        LatencyScorer scorer = new LatencyScorer(null, 2, 0, 2); // half cache room, half prefix
        assertThat(scorer.score(Cycles.withPrefix(pool, 4, 4, 2, 0), Pools.states(pool)))
                .containsExactly(0.9, 0.5, 0.05); // (0.8+1)/2, (0.5+0.5)/2, 0.1/2
        assertThat(new LatencyScorer(null, 0, 0, 0).score(Cycles.of(pool), Pools.states(pool)))
                .containsExactly(0.8, 0.5, 0.1); // all zero: cache room only
    }

    @Test
    void withoutQueuesOrMetricsEveryPartIsAtItsBest() {
        LatencyScorer scorer = new LatencyScorer(null, 1, 1, 1);
        // never scraped: usage unknown (room 1), no queue (1), no prefix information (0)
        assertThat(scorer.score(Cycles.of(pool), Pools.states(pool))).containsExactly(0.67, 0.67, 0.67);
        assertThat(scorer.score(Cycles.of(pool), List.of())).isEmpty();
    }

    @Test
    void predictionParametersAreCheckedThoughUnused() {
        assertThatThrownBy(() -> LatencyScorer.create(null, params("{'headroomSelectionStrategy':'fast'}"), context()))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'headroomSelectionStrategy'");
        assertThatThrownBy(() -> LatencyScorer.create(null, params("{'ttftWeight':-1}"), context()))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'ttftWeight'");
        assertThatThrownBy(() -> new LatencyScorer(null, 1, -1, 1))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'compositeQueueWeight'");
    }
}
