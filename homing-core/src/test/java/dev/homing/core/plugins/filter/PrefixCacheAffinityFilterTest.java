package dev.homing.core.plugins.filter;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.names;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.Cycles;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PrefixMatch;
import dev.homing.core.plugins.ScriptedRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrefixCacheAffinityFilterTest {

    private final EndpointPool pool = Pools.of(4);

    /** Ratios 1.0, 0.75, 0.25, 0. */
    private Cycle warm() {
        return Cycles.withPrefix(pool, 4, 4, 3, 1, 0);
    }

    private List<String> kept(PrefixCacheAffinityFilter f, Cycle c) {
        return names(f.filter(c, Pools.states(pool)));
    }

    @Test
    void keepsTheStickyEndpointsAtOrAboveTheThreshold() {
        ScriptedRandom random = new ScriptedRandom().withDoubles(0.5, 0.5);
        assertThat(kept(new PrefixCacheAffinityFilter(null, 0.80, 0.01, 5000, random), warm())).containsExactly("pod-0");
        assertThat(kept(new PrefixCacheAffinityFilter(null, 0.75, 0.01, 5000, random), warm()))
                .containsExactly("pod-0", "pod-1");
        assertThat(random.exhausted()).isTrue();
    }

    @Test
    void explorationKeepsEveryoneWithItsProbability() {
        ScriptedRandom random = new ScriptedRandom().withDoubles(0.009, 0.01);
        PrefixCacheAffinityFilter f = new PrefixCacheAffinityFilter(null, 0.80, 0.01, 5000, random);
        assertThat(kept(f, warm())).hasSize(4); // 0.009 < 0.01
        assertThat(kept(f, warm())).containsExactly("pod-0"); // 0.01 is not below 0.01
    }

    @Test
    void noStickyEndpointKeepsEveryone() {
        ScriptedRandom random = new ScriptedRandom().withDoubles(0.5, 0.5);
        PrefixCacheAffinityFilter f = new PrefixCacheAffinityFilter(null, 0.80, 0.01, 5000, random);
        assertThat(kept(f, Cycles.withPrefix(pool, 4, 3, 3, 0, 0))).hasSize(4);
        assertThat(kept(f, Cycles.of(pool))).hasSize(4); // no prefix information
    }

    @Test
    void oneCandidateOrThresholdZeroDrawNothing() {
        ScriptedRandom random = new ScriptedRandom();
        PrefixCacheAffinityFilter f = new PrefixCacheAffinityFilter(null, 0.80, 0.01, 5000, random);
        assertThat(f.filter(warm(), List.of(pool.snapshot().get("pod-3")))).hasSize(1);
        assertThat(f.filter(warm(), List.of())).isEmpty();
        assertThat(kept(new PrefixCacheAffinityFilter(null, 0, 0.01, 5000, random), warm())).hasSize(4);
    }

    @Test
    void aDryRunDoesNotDrawFromTheSharedRandom() {
        ScriptedRandom random = new ScriptedRandom(); // any draw would fail
        Cycle dry = new Cycle(Requests.completion("hello"), pool.snapshot(), 0, true);
        dry.put(PrefixMatch.KEY, new PrefixMatch(new int[] {4, 3, 1, 0}, 4, 16));
        PrefixCacheAffinityFilter f = new PrefixCacheAffinityFilter(null, 0.80, 0.01, 5000, random);
        assertThat(f.filter(dry, Pools.states(pool))).isNotEmpty();
    }

    @Test
    void parametersAreChecked() {
        assertThatThrownBy(() -> PrefixCacheAffinityFilter.create(null, params("{'affinityThreshold':1.5}"), context()))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'affinityThreshold'");
        assertThatThrownBy(() -> PrefixCacheAffinityFilter.create(null, params("{'explorationProbability':-0.1}"),
                context())).isInstanceOf(PluginConfigException.class).hasMessageContaining("'explorationProbability'");
        assertThatThrownBy(() -> PrefixCacheAffinityFilter.create(null, params("{'maxTTFTPenaltyMs':-1}"), context()))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'maxTTFTPenaltyMs'");
    }
}
