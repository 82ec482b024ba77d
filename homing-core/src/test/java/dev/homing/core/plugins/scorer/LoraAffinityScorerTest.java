package dev.homing.core.plugins.scorer;

import static dev.homing.core.fixtures.Pools.scrape;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.Cycles;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LoraAffinityScorerTest {

    private static final String ADAPTER = Requests.MODEL; // the request's target model

    private static EndpointMetrics lora(Set<String> active, Set<String> waiting, int max) {
        return new EndpointMetrics(0, 0, 0, 16, 1000, active, waiting, max, 0);
    }

    @Test
    void activeThenRoomThenWaitingThenFull() {
        EndpointPool pool = Pools.of(6);
        scrape(pool, "pod-0", lora(Set.of(ADAPTER), Set.of(), 1));           // active, even when full
        scrape(pool, "pod-1", lora(Set.of("a"), Set.of(), 4));               // 1 < 4: room
        scrape(pool, "pod-2", lora(Set.of("a", "b"), Set.of(ADAPTER), 3));   // 3 < 3 false; waiting
        scrape(pool, "pod-3", lora(Set.of("a", "b"), Set.of("c"), 3));       // full
        scrape(pool, "pod-4", lora(Set.of("a"), Set.of(ADAPTER), 4));        // waiting but room: room wins
        double[] s = new LoraAffinityScorer(null).score(Cycles.of(pool), Pools.states(pool));
        // pod-5 was never scraped: max_lora unknown, so no known room
        assertThat(s).containsExactly(1.0, 0.8, 0.6, 0.0, 0.8, 0.0);
    }

    @Test
    void noCandidates() {
        assertThat(new LoraAffinityScorer(null).score(Cycles.of(Pools.of(1)), List.of())).isEmpty();
    }
}
