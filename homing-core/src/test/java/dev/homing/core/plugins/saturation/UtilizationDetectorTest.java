package dev.homing.core.plugins.saturation;

import static dev.homing.core.fixtures.Pools.scrape;
import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.names;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.scheduling.Cycle;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class UtilizationDetectorTest {

    private static final long NOW = 10_000_000_000L;
    private static final long MS = 1_000_000L;

    private final EndpointPool pool = Pools.of(3);

    private static EndpointMetrics at(int waiting, double kv, long ageMs) {
        return new EndpointMetrics(waiting, 1, kv, 16, 1000, Set.of(), Set.of(), -1, NOW - ageMs * MS);
    }

    private UtilizationDetector detector(String json) {
        return UtilizationDetector.create(null, params(json), context());
    }

    private List<String> kept(UtilizationDetector d) {
        return names(d.filter(new Cycle(Requests.completion("hi"), pool.snapshot(), NOW), Pools.states(pool)));
    }

    @Test
    void poolSaturationIsTheMeanOfEachEndpointsTighterResourceWithStaleCountingFull() {
        scrape(pool, "pod-0", at(0, 0.4, 100));   // max(0/5, 0.4/0.8) = 0.5
        scrape(pool, "pod-1", at(10, 0.2, 100));  // max(10/5, 0.2/0.8) = 2
        scrape(pool, "pod-2", at(1, 0.1, 300));   // stale: 1.0
        assertThat(detector("{}").saturation(Pools.states(pool), NOW)).isCloseTo(3.5 / 3, within(1e-12));
    }

    @Test
    void stalenessPolicyIgnoreLeavesStaleEndpointsOut() {
        scrape(pool, "pod-0", at(0, 0.4, 100));
        scrape(pool, "pod-1", at(10, 0.2, 100));
        UtilizationDetector d = detector("{'stalenessPolicy':'ignore'}");
        assertThat(d.saturation(Pools.states(pool), NOW)).isCloseTo(1.25, within(1e-12)); // (0.5 + 2) / 2
        assertThat(d.saturation(Pools.states(pool), NOW + 1000 * MS)).isEqualTo(0.0);    // all stale
    }

    @Test
    void anEmptyPoolIsSaturatedAndANeverScrapedEndpointIsStale() {
        UtilizationDetector d = detector("{}");
        assertThat(d.saturation(List.of(), NOW)).isEqualTo(1.0);
        assertThat(d.saturation(Pools.states(pool), NOW)).isEqualTo(1.0);
        assertThat(d.saturated(pool.snapshot().get("pod-0"), NOW)).isTrue();
    }

    @Test
    void staleMeansOlderThanTheThresholdNotAsOld() {
        scrape(pool, "pod-0", at(0, 0, 200));
        scrape(pool, "pod-1", at(0, 0, 201));
        UtilizationDetector d = detector("{}");
        assertThat(d.saturated(pool.snapshot().get("pod-0"), NOW)).isFalse();
        assertThat(d.saturated(pool.snapshot().get("pod-1"), NOW)).isTrue();
        assertThat(detector("{'metricsStalenessThreshold':'1s'}").saturated(pool.snapshot().get("pod-1"), NOW)).isFalse();
    }

    @Test
    void filterDropsStaleAndEndpointsAtTheirLimits() {
        scrape(pool, "pod-0", at(4, 0.79, 100));  // under both limits
        scrape(pool, "pod-1", at(5, 0.1, 100));   // queue at the limit
        scrape(pool, "pod-2", at(0, 0.8, 100));   // KV at the limit
        assertThat(kept(detector("{}"))).containsExactly("pod-0");
    }

    @Test
    void headroomRelaxesTheFilterButNotPastAFullCache() {
        scrape(pool, "pod-0", at(5, 0.95, 100));  // limits with headroom 0.2: queue 6, KV 0.96
        scrape(pool, "pod-1", at(6, 0.1, 100));
        scrape(pool, "pod-2", at(0, 1.0, 100));
        assertThat(kept(detector("{'headroom':0.2}"))).containsExactly("pod-0");
        assertThat(kept(detector("{'headroom':1.0}"))).containsExactly("pod-0", "pod-1"); // KV limit min(1, 1.6)
    }

    @Test
    void whenEveryoneIsDroppedEveryoneIsKept() {
        scrape(pool, "pod-0", at(50, 0.1, 100));
        scrape(pool, "pod-1", at(0, 0.1, 900));
        assertThat(kept(detector("{}"))).containsExactly("pod-0", "pod-1", "pod-2");
    }

    @Test
    void requestsSentSinceTheScrapeToAQueueingPodCount() {
        scrape(pool, "pod-0", at(3, 0, 100));
        pool.load("pod-0").acquire(1, 2);
        pool.load("pod-0").acquire(1, 2);
        EndpointState s = pool.snapshot().get("pod-0");
        assertThat(detector("{}").saturated(s, NOW)).isTrue(); // 3 + 2 waiting reaches 5
        assertThat(detector("{}").saturation(List.of(s), NOW)).isEqualTo(1.0);
    }

    @Test
    void poolSaturationCountsEveryRequestSentSinceTheScrapeEvenToAnIdlePodTheFilterOnlyToAQueueingOne() {
        scrape(pool, "pod-0", at(0, 0, 10));
        UtilizationDetector d = detector("{'queueDepthThreshold':1}");
        EndpointState idle = pool.snapshot().get("pod-0");
        assertThat(d.saturation(List.of(idle), NOW)).isZero();
        pool.load("pod-0").acquire(1, 2); // sent since the scrape, which saw an empty queue
        EndpointState sent = pool.snapshot().get("pod-0");
        assertThat(d.saturation(List.of(sent), NOW)).isEqualTo(1.0); // until a scrape says it found a seat
        assertThat(d.saturated(sent, NOW)).isFalse(); // the filter still sends an idle pod more
        scrape(pool, "pod-0", at(0, 0, 0)); // the next scrape saw it running, not waiting
        assertThat(d.saturation(List.of(pool.snapshot().get("pod-0")), NOW)).isZero();
    }

    @Test
    void parametersAreChecked() {
        assertThatThrownBy(() -> detector("{'queueDepthThreshold':0}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'queueDepthThreshold'");
        assertThatThrownBy(() -> detector("{'kvCacheUtilThreshold':1.5}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'kvCacheUtilThreshold'");
        assertThatThrownBy(() -> detector("{'metricsStalenessThreshold':'0s'}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'metricsStalenessThreshold'");
        assertThatThrownBy(() -> detector("{'headroom':-0.5}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'headroom'");
        assertThatThrownBy(() -> detector("{'stalenessPolicy':'never'}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'stalenessPolicy'");
    }
}
