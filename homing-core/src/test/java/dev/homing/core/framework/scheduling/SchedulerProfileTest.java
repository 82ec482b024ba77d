package dev.homing.core.framework.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.Cycles;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.plugins.picker.MaxScorePicker;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchedulerProfileTest {

    private final EndpointPool pool = Pools.of(3);

    private static final class Fixed extends NamedPlugin implements Scorer {
        private final double[] scores;

        Fixed(String name, double... scores) {
            super("fixed", name);
            this.scores = scores;
        }

        @Override
        public double[] score(Cycle cycle, List<EndpointState> candidates) {
            return scores.clone();
        }
    }

    private static final class DropFirst extends NamedPlugin implements Filter {
        DropFirst() {
            super("drop-first", null);
        }

        @Override
        public List<EndpointState> filter(Cycle cycle, List<EndpointState> candidates) {
            return candidates.subList(1, candidates.size());
        }
    }

    @Test
    void weightedSumOfClampedScoresNaNCountingAsZero() throws Exception {
        SchedulerProfile p = new SchedulerProfile("default", List.of(), List.of(
                new WeightedScorer(new Fixed("a", 0.5, 2.0, Double.NaN), 3),
                new WeightedScorer(new Fixed("b", -1, 0.25, 1.0), 2)), new MaxScorePicker(null, 1));
        ProfileResult r = p.run(Cycles.of(pool), Pools.states(pool));
        assertThat(r.totals()).containsExactly(1.5, 3.5, 2.0);
        assertThat(r.target().name()).isEqualTo("pod-1");
        assertThat(r.scores().get(0).scores()).containsExactly(0.5, 1.0, 0.0);
        assertThat(r.scores().get(1).weight()).isEqualTo(2);
    }

    @Test
    void filtersNarrowAndAreRecorded() throws Exception {
        SchedulerProfile p = new SchedulerProfile("default", List.of(new DropFirst()),
                List.of(new WeightedScorer(new Fixed("a", 1, 0), 1)), new MaxScorePicker(null, 1));
        ProfileResult r = p.run(Cycles.of(pool), Pools.states(pool));
        assertThat(r.filters().get(0).keptNames()).containsExactly("pod-1", "pod-2");
        assertThat(r.target().name()).isEqualTo("pod-1");
    }

    @Test
    void aFilterThatLeavesNothingExhaustsThePool() {
        SchedulerProfile p = new SchedulerProfile("default", List.of(new DropFirst()), List.of(), new MaxScorePicker(null, 1));
        assertThatThrownBy(() -> p.run(Cycles.of(pool), List.of(pool.snapshot().get("pod-0"))))
                .isInstanceOfSatisfying(SchedulingException.class, e -> assertThat(e.status()).isEqualTo(429))
                .hasMessageContaining("drop-first");
    }

    @Test
    void negativeWeightsAreRefused() {
        assertThatThrownBy(() -> new WeightedScorer(new Fixed("a"), -1)).hasMessageContaining("finite number >= 0");
    }
}
