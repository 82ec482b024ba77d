package dev.homing.bench.workload;

import static dev.homing.bench.workload.WorkloadAssertions.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArrivalsTest {

    private static final long S = 1_000_000_000L;

    /** Tiny prompts: these tests are about time, not text. */
    private static Workload load(String... arrival) {
        Map<String, String> p = params(arrival);
        p.put("system_prompt_len", "4");
        p.put("question_len", "1");
        p.put("num_groups", "2");
        p.put("num_prompts_per_group", "2");
        return Workloads.create("shared-prefix", p, 21);
    }

    @Test
    void aLadderHoldsEachRateForItsSecondsInOrder() {
        Workload w = load("qps", "50x20,200x10");
        assertThat(w.stageQps()).containsExactly(50.0, 200.0);
        assertThat(w.closedLoop()).isFalse();
        long[] t = w.requests().stream().mapToLong(WorkloadRequest::arrivalNanos).toArray();
        long[] sorted = t.clone();
        Arrays.sort(sorted);
        assertThat(t).isEqualTo(sorted);
        long stage0 = w.requests().stream().filter(r -> r.stage() == 0).count();
        long stage1 = w.requests().stream().filter(r -> r.stage() == 1).count();
        assertThat(stage0 + stage1).isEqualTo(w.requests().size());
        // Poisson counts: 1,000 ± 5σ (σ ≈ 32) and 2,000 ± 5σ (σ ≈ 45)
        assertThat(stage0).isBetween(840L, 1160L);
        assertThat(stage1).isBetween(1775L, 2225L);
        for (WorkloadRequest r : w.requests()) {
            long from = r.stage() == 0 ? 0 : 20 * S;
            assertThat(r.arrivalNanos()).isBetween(from, from + (r.stage() == 0 ? 20 : 10) * S - 1);
        }
        assertThat(w.parameters()).containsEntry("qps", "50x20,200x10").containsEntry(Workloads.ARRIVAL, "poisson");
    }

    @Test
    void gapsAreExponentialAtTheRate() {
        Workload w = load("qps", "100", "duration", "100");
        List<WorkloadRequest> rs = w.requests();
        double[] gaps = new double[rs.size() - 1];
        for (int i = 1; i < rs.size(); i++) {
            gaps[i - 1] = (rs.get(i).arrivalNanos() - rs.get(i - 1).arrivalNanos()) / 1e9;
        }
        double mean = Arrays.stream(gaps).average().orElseThrow();
        double sd = Math.sqrt(Arrays.stream(gaps).map(g -> (g - mean) * (g - mean)).sum() / gaps.length);
        assertThat(mean).isBetween(0.0095, 0.0105);
        // an exponential's standard deviation equals its mean
        assertThat(sd / mean).isBetween(0.94, 1.06);
        // and P(gap > mean) = 1/e
        double above = Arrays.stream(gaps).filter(g -> g > 0.01).count() / (double) gaps.length;
        assertThat(above).isBetween(Math.exp(-1) - 0.025, Math.exp(-1) + 0.025);
        assertThat(w.stageQps()).containsExactly(100.0);
    }

    @Test
    void numRequestsCapsScheduledLoad() {
        Workload w = load("qps", "10x100", "num_requests", "25");
        assertThat(w.requests()).hasSize(25);
        Workload single = load("qps", "10", "num_requests", "25");
        assertThat(single.requests()).hasSize(25);
    }

    @Test
    void closedLoopHasNoTimesAndKeepsConcurrencyInFlight() {
        Workload w = load("concurrency", "4");
        assertThat(w.closedLoop()).isTrue();
        assertThat(w.concurrency()).isEqualTo(4);
        assertThat(w.stageQps()).isEmpty();
        assertThat(w.requests()).hasSize(4).allMatch(r -> r.arrivalNanos() == -1 && r.stage() == 0);
        assertThat(load("concurrency", "4", "num_requests", "9").requests()).hasSize(9);
        assertThat(w.parameters()).containsEntry(Workloads.ARRIVAL, "closed-loop").doesNotContainKey("qps");
    }

    @Test
    void arrivalParametersLeaveThePromptsAlone() {
        Workload closed = load("concurrency", "1", "num_requests", "40");
        Workload paced = load("qps", "30x10", "num_requests", "40");
        assertThat(paced.requests()).hasSize(40);
        assertThat(WorkloadAssertions.samePrompts(closed, paced)).isTrue();
    }

    @Test
    void conflictingOrMalformedArrivalsAreRefusedByName() {
        assertThatThrownBy(() -> load("qps", "5", "concurrency", "2"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("qps").hasMessageContaining(
                        "concurrency");
        assertThatThrownBy(() -> load("qps", "3x20", "duration", "5"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("duration");
        assertThatThrownBy(() -> load("qps", "3x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("parameter qps")
                .hasMessageContaining("3x");
        assertThatThrownBy(() -> load("qps", "fast", "duration", "1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("parameter qps");
        assertThatThrownBy(() -> load("qps", "-1", "duration", "1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("parameter qps");
        assertThatThrownBy(() -> load("concurrency", "0"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("parameter concurrency");
        assertThatThrownBy(() -> load("concurrency", "2", "duration", "10"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("parameter duration");
        assertThatThrownBy(() -> load("qps", "0x10"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one request");
    }
}
