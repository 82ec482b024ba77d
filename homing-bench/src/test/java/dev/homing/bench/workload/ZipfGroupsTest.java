package dev.homing.bench.workload;

import static dev.homing.bench.workload.WorkloadAssertions.params;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ZipfGroupsTest {

    private static int[] counts(Workload w, int groups) {
        int[] counts = new int[groups];
        w.requests().forEach(r -> counts[r.group()]++);
        return counts;
    }

    @Test
    void popularityFallsAsOneOverRankToThePowerS() {
        Workload w = Workloads.create("zipf", params("num_groups", "8", "zipf_s", "1", "system_prompt_len", "16",
                "question_len", "2", "output_len", "1", "concurrency", "1", "num_requests", "20000"), 7);
        int[] c = counts(w, 8);
        // p(k) ∝ 1/(k+1): group 0 twice as popular as group 1, four times group 3, eight times group 7
        assertThat((double) c[0] / c[1]).isBetween(1.8, 2.2);
        assertThat((double) c[0] / c[3]).isBetween(3.5, 4.5);
        assertThat((double) c[0] / c[7]).isBetween(6.8, 9.2);
        double h8 = 0;
        for (int k = 1; k <= 8; k++) {
            h8 += 1.0 / k;
        }
        assertThat(c[0] / 20000.0).isBetween(1 / h8 - 0.02, 1 / h8 + 0.02);
    }

    @Test
    void exponentZeroIsUniform() {
        Workload w = Workloads.create("zipf", params("num_groups", "4", "zipf_s", "0", "system_prompt_len", "4",
                "question_len", "1", "concurrency", "1", "num_requests", "8000"), 7);
        assertThat(Arrays.stream(counts(w, 4)).boxed().toList()).allSatisfy(n -> assertThat(n).isBetween(1800, 2200));
    }

    @Test
    void eachRequestIsItsGroupsSystemPromptAndAFreshQuestion() {
        Workload w = Workloads.create("zipf", params("num_groups", "5", "system_prompt_len", "32",
                "question_len", "8", "concurrency", "1", "num_requests", "200"), 9);
        Map<Integer, int[]> systemOf = new HashMap<>();
        for (WorkloadRequest r : w.requests()) {
            int[] tokens = r.prompt().tokens();
            assertThat(tokens).hasSize(40);
            int[] system = Arrays.copyOf(tokens, 32);
            assertThat(systemOf.computeIfAbsent(r.group(), g -> system)).isEqualTo(system);
        }
        assertThat(w.requests().stream().map(r -> Arrays.toString(r.prompt().tokens())).distinct().count())
                .isEqualTo(200);
    }
}
