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
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.plugins.ScriptedRandom;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WeightedRandomPickerTest {

    private final EndpointPool pool = Pools.of(4);
    private final List<EndpointState> all = Pools.states(pool);

    @Test
    void largestKeysWinWhereTheKeyIsUToTheOneOverTheScore() {
        // keys: 0.5^(1/2) = 0.7071, pod-1 scores 0 → key 0, 0.81^(1/1) = 0.81, 0.8^(1/0.5) = 0.64
        ScriptedRandom random = new ScriptedRandom().withDoubles(0.5, 0.81, 0.8, 0.5, 0.81, 0.8);
        double[] totals = {2, 0, 1, 0.5};
        assertThat(names(new WeightedRandomPicker(null, 1, random).pick(Cycles.of(pool), all, totals)))
                .containsExactly("pod-2");
        assertThat(names(new WeightedRandomPicker(null, 4, random).pick(Cycles.of(pool), all, totals)))
                .containsExactly("pod-2", "pod-0", "pod-3", "pod-1");
        assertThat(random.exhausted()).isTrue(); // one draw per positive score only
    }

    @Test
    void noPositiveScoreMeansAUniformShuffle() {
        ScriptedRandom random = new ScriptedRandom().withInts(0, 2, 0);
        assertThat(names(new WeightedRandomPicker(null, 1, random).pick(Cycles.of(pool), all, new double[4])))
                .containsExactly("pod-1");
    }

    @Test
    void aZeroDrawStillBeatsAZeroScore() {
        ScriptedRandom random = new ScriptedRandom().withDoubles(0.0);
        List<EndpointState> two = all.subList(0, 2);
        assertThat(names(new WeightedRandomPicker(null, 1, random).pick(Cycles.of(pool), two, new double[] {0, 1})))
                .containsExactly("pod-1");
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 7, 42})
    void picksInProportionToTheScores(long seed) {
        WeightedRandomPicker picker = new WeightedRandomPicker(null, 1, new SplittableRandom(seed));
        double[] totals = {3, 1, 0, 0};
        int first = 0;
        int n = 20_000;
        Cycle cycle = Cycles.of(pool);
        for (int i = 0; i < n; i++) {
            String picked = picker.pick(cycle, all, totals).get(0).name();
            assertThat(picked).isIn("pod-0", "pod-1");
            first += picked.equals("pod-0") ? 1 : 0;
        }
        assertThat((double) first / n).isBetween(0.735, 0.765); // 3/4, ~5 standard deviations either side
    }

    @Test
    void maxNumOfEndpointsMustBePositive() {
        assertThatThrownBy(() -> WeightedRandomPicker.create(null, params("{'maxNumOfEndpoints':-1}"), context()))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'maxNumOfEndpoints'");
    }
}
