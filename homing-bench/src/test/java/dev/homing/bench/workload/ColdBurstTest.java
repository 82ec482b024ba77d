package dev.homing.bench.workload;

import static dev.homing.bench.workload.WorkloadAssertions.params;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.sim.tokenizer.SimTokenizer;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ColdBurstTest {

    @Test
    void theDemosThirtyUniquePromptsAtOnce() {
        Workload w = Workloads.create("cold-burst", Map.of(), 1);
        assertThat(w.requests()).hasSize(30);
        assertThat(w.stageQps()).containsExactly(0.0);
        assertThat(w.closedLoop()).isFalse();
        for (int i = 0; i < 30; i++) {
            WorkloadRequest r = w.requests().get(i);
            String text = "Write one sentence about topic number " + (i + 1) + " in cloud computing.";
            assertThat(r.prompt().text()).isEqualTo(text);
            assertThat(r.prompt().tokens()).isEqualTo(SimTokenizer.builtin().encode(text));
            assertThat(r.arrivalNanos()).isZero();
            assertThat(r.maxTokens()).isEqualTo(20);
            assertThat(r.ignoreEos()).isFalse();
            assertThat(r.group()).isEqualTo(-1);
        }
        assertThat(w.parameters()).containsEntry(Workloads.ARRIVAL, "burst");
    }

    @Test
    void nOfThemOrPaced() {
        assertThat(Workloads.create("cold-burst", params("num_requests", "5"), 1).requests()).hasSize(5);
        Workload paced = Workloads.create("cold-burst", params("qps", "10", "duration", "3"), 1);
        assertThat(paced.stageQps()).containsExactly(10.0);
        assertThat(paced.requests()).allMatch(r -> r.arrivalNanos() >= 0 && r.arrivalNanos() < 3_000_000_000L);
        assertThat(paced.requests().get(1).prompt().text()).contains("topic number 2 ");
    }
}
