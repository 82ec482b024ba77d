package dev.homing.core.plugins.picker;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.names;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.Cycles;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.plugins.ScriptedRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

class RandomPickerTest {

    private final EndpointPool pool = Pools.of(4);
    private final List<EndpointState> all = Pools.states(pool);

    @Test
    void fisherYatesFromTheInjectedRandomIgnoringScores() {
        // [0,1,2,3]: i=3 swaps with 0 → [3,1,2,0]; i=2 with 2 → same; i=1 with 0 → [1,3,2,0]
        ScriptedRandom random = new ScriptedRandom().withInts(0, 2, 0, 0, 2, 0);
        assertThat(names(new RandomPicker(null, 1, random).pick(Cycles.of(pool), all, new double[] {9, 0, 0, 0})))
                .containsExactly("pod-1");
        assertThat(names(new RandomPicker(null, 2, random).pick(Cycles.of(pool), all, new double[4])))
                .containsExactly("pod-1", "pod-3");
        assertThat(random.exhausted()).isTrue();
    }

    @Test
    void moreThanThereAreReturnsAll() {
        ScriptedRandom random = new ScriptedRandom().withInts(3, 2, 1);
        assertThat(names(new RandomPicker(null, 9, random).pick(Cycles.of(pool), all, new double[4])))
                .containsExactly("pod-0", "pod-1", "pod-2", "pod-3");
    }

    @Test
    void oneCandidateDrawsNothing() {
        ScriptedRandom random = new ScriptedRandom();
        assertThat(new RandomPicker(null, 1, random).pick(Cycles.of(pool), all.subList(2, 3), new double[1]))
                .containsExactly(all.get(2));
    }

    @Test
    void aDryRunLeavesTheSharedRandomAlone() {
        ScriptedRandom random = new ScriptedRandom(); // any draw would fail
        Cycle dry = new Cycle(Requests.completion("hi"), pool.snapshot(), 0, true);
        assertThat(new RandomPicker(null, 2, random).pick(dry, all, new double[4])).hasSize(2);
    }

    @Test
    void maxNumOfEndpointsMustBePositive() {
        assertThatThrownBy(() -> RandomPicker.create(null, params("{'maxNumOfEndpoints':0}"), context()))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'maxNumOfEndpoints'");
    }
}
