package dev.homing.core.plugins.picker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.Cycles;
import dev.homing.core.fixtures.Pools;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MaxScorePickerTest {

    private final EndpointPool pool = Pools.of(4);
    private final List<EndpointState> all = Pools.states(pool);

    private List<String> pick(MaxScorePicker picker, double... totals) {
        return picker.pick(Cycles.of(pool), all, totals).stream().map(EndpointState::name).toList();
    }

    @Test
    void highestTotalWins() {
        assertThat(pick(new MaxScorePicker(null, 1), 0.1, 3.2, 2.0, 3.1)).containsExactly("pod-1");
    }

    @Test
    void tiesRotateThroughTheTopTierOnly() {
        MaxScorePicker picker = new MaxScorePicker(null, 1);
        List<String> picks = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            picks.addAll(pick(picker, 2.0, 1.0, 2.0, 2.0));
        }
        assertThat(picks).containsExactly("pod-0", "pod-2", "pod-3", "pod-0", "pod-2", "pod-3");
    }

    @Test
    void floatNoiseDoesNotBreakATie() {
        MaxScorePicker picker = new MaxScorePicker(null, 1);
        double a = 0.1 + 0.2;
        double b = 0.3;
        assertThat(pick(picker, a, b, 0, 0)).containsExactly("pod-0");
        assertThat(pick(picker, a, b, 0, 0)).containsExactly("pod-1");
    }

    @Test
    void fallbacksFollowInScoreOrder() {
        MaxScorePicker picker = new MaxScorePicker(null, 3);
        assertThat(pick(picker, 1.0, 4.0, 3.0, 2.0)).containsExactly("pod-1", "pod-2", "pod-3");
    }

    @Test
    void moreFallbacksThanCandidatesReturnsAll() {
        MaxScorePicker picker = new MaxScorePicker(null, 9);
        assertThat(pick(picker, 1, 1, 1, 0)).hasSize(4).endsWith("pod-3");
    }
}
