package dev.homing.core.plugins.saturation;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.names;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.Lease;
import dev.homing.core.fixtures.Cycles;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.framework.plugin.PluginConfigException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConcurrencyDetectorTest {

    private final EndpointPool pool = Pools.of(3);

    private ConcurrencyDetector detector(String json) {
        return ConcurrencyDetector.create(null, params(json), context());
    }

    private void requests(String pod, int n, long tokensEach) {
        for (int i = 0; i < n; i++) {
            pool.load(pod).acquire(0, tokensEach);
        }
    }

    private List<String> kept(ConcurrencyDetector d) {
        return names(d.filter(Cycles.of(pool), Pools.states(pool)));
    }

    @Test
    void requestsModeComparesInFlightRequestsWithCapacity() {
        requests("pod-0", 4, 10);
        requests("pod-1", 1, 10);
        ConcurrencyDetector d = detector("{'maxConcurrency':4}");
        assertThat(d.saturation(Pools.states(pool), 0)).isCloseTo(5.0 / 12, within(1e-12));
        assertThat(kept(d)).containsExactly("pod-1", "pod-2"); // 4 reaches the limit 4
    }

    @Test
    void headroomRaisesTheFilterLimitNotTheSaturation() {
        requests("pod-0", 6, 10);
        requests("pod-1", 5, 10);
        ConcurrencyDetector d = detector("{'maxConcurrency':4,'headroom':0.5}"); // limit floor(6.0) = 6
        assertThat(kept(d)).containsExactly("pod-1", "pod-2");
        assertThat(d.saturation(Pools.states(pool), 0)).isCloseTo(11.0 / 12, within(1e-12));
    }

    @Test
    void tokensModeComparesInFlightTokens() {
        requests("pod-0", 1, 900);
        requests("pod-0", 1, 600);
        ConcurrencyDetector d = detector("{'concurrencyMode':'tokens','maxTokenConcurrency':1000}");
        assertThat(d.saturation(Pools.states(pool), 0)).isCloseTo(0.5, within(1e-12)); // 1500 / 3000
        assertThat(kept(d)).containsExactly("pod-1", "pod-2");
    }

    @Test
    void hybridTakesTheTighterOfTheTwo() {
        requests("pod-0", 2, 100);   // 2 requests, 200 tokens
        requests("pod-1", 1, 1000);  // 1 request, 1000 tokens
        ConcurrencyDetector d = detector("{'concurrencyMode':'hybrid','maxConcurrency':2,'maxTokenConcurrency':1000}");
        // requests 3/6 = 0.5, tokens 1200/3000 = 0.4
        assertThat(d.saturation(Pools.states(pool), 0)).isCloseTo(0.5, within(1e-12));
        assertThat(kept(d)).containsExactly("pod-2"); // pod-0 by requests, pod-1 by tokens
    }

    @Test
    void theFilterMayDropEveryoneAndRequestsEndingFreeRoom() {
        Lease lease = pool.load("pod-0").acquire(0, 1);
        requests("pod-1", 1, 1);
        requests("pod-2", 1, 1);
        ConcurrencyDetector d = detector("{'maxConcurrency':1}");
        assertThat(kept(d)).isEmpty();
        lease.close();
        assertThat(kept(d)).containsExactly("pod-0");
    }

    @Test
    void anEmptyPoolIsSaturated() {
        assertThat(detector("{}").saturation(List.of(), 0)).isEqualTo(1.0);
        assertThat(detector("{}").saturation(Pools.states(pool), 0)).isEqualTo(0.0);
    }

    @Test
    void parametersAreChecked() {
        assertThatThrownBy(() -> detector("{'concurrencyMode':'bytes'}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'concurrencyMode'");
        assertThatThrownBy(() -> detector("{'maxConcurrency':0}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'maxConcurrency'");
        assertThatThrownBy(() -> detector("{'maxTokenConcurrency':-1}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'maxTokenConcurrency'");
        assertThatThrownBy(() -> detector("{'headroom':-0.1}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'headroom'");
    }
}
