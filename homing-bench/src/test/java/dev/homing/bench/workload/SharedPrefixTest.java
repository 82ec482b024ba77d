package dev.homing.bench.workload;

import static dev.homing.bench.workload.WorkloadAssertions.params;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.sim.tokenizer.SimTokenizer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SharedPrefixTest {

    private static final SimTokenizer TOKENIZER = SimTokenizer.builtin();

    private static Workload onePassTwice() {
        return Workloads.create("shared-prefix", params("num_groups", "4", "num_prompts_per_group", "3",
                "system_prompt_len", "64", "question_len", "20", "output_len", "7", "concurrency", "2",
                "num_requests", "24"), 11);
    }

    @Test
    void promptsHaveExactlyTheRequestedTokenLengths() {
        Workload w = onePassTwice();
        for (WorkloadRequest r : w.requests()) {
            assertThat(r.prompt().isChat()).isFalse();
            assertThat(r.prompt().tokens()).hasSize(84);
            assertThat(TOKENIZER.encode(r.prompt().text())).isEqualTo(r.prompt().tokens());
            assertThat(r.maxTokens()).isEqualTo(7);
            assertThat(r.ignoreEos()).isTrue();
            assertThat(r.conversation()).isEqualTo(-1);
            assertThat(r.model()).isEqualTo("Qwen/Qwen2.5-0.5B-Instruct");
        }
    }

    @Test
    void aGroupSharesItsSystemPromptAndNothingMore() {
        Workload w = onePassTwice();
        Map<Integer, int[]> systemOf = new HashMap<>();
        Set<String> questions = new HashSet<>();
        for (WorkloadRequest r : w.requests().subList(0, 12)) {
            int[] tokens = r.prompt().tokens();
            int[] system = Arrays.copyOf(tokens, 64);
            int[] known = systemOf.putIfAbsent(r.group(), system);
            if (known != null) {
                assertThat(system).isEqualTo(known);
            }
            questions.add(Arrays.toString(Arrays.copyOfRange(tokens, 64, 84)));
        }
        assertThat(systemOf).hasSize(4);
        assertThat(questions).hasSize(12);
        // different groups differ from their first block on
        List<int[]> systems = List.copyOf(systemOf.values());
        for (int i = 0; i < systems.size(); i++) {
            for (int j = i + 1; j < systems.size(); j++) {
                assertThat(Arrays.copyOf(systems.get(i), 16)).isNotEqualTo(Arrays.copyOf(systems.get(j), 16));
            }
        }
    }

    @Test
    void allPromptsAreSentOncePerPassInOneShuffledOrder() {
        Workload w = onePassTwice();
        List<WorkloadRequest> rs = w.requests();
        assertThat(rs).hasSize(24);
        Set<String> firstPass = new HashSet<>();
        Map<Integer, Integer> perGroup = new HashMap<>();
        for (int i = 0; i < 12; i++) {
            firstPass.add(Arrays.toString(rs.get(i).prompt().tokens()));
            perGroup.merge(rs.get(i).group(), 1, Integer::sum);
            // request i + 12 sends prompt i again
            assertThat(rs.get(i + 12).prompt().tokens()).isEqualTo(rs.get(i).prompt().tokens());
            assertThat(rs.get(i + 12).group()).isEqualTo(rs.get(i).group());
        }
        assertThat(firstPass).hasSize(12);
        assertThat(perGroup).containsOnly(Map.entry(0, 3), Map.entry(1, 3), Map.entry(2, 3), Map.entry(3, 3));
        int[] groupOrder = rs.subList(0, 12).stream().mapToInt(WorkloadRequest::group).toArray();
        int[] sorted = groupOrder.clone();
        Arrays.sort(sorted);
        assertThat(groupOrder).as("shuffled").isNotEqualTo(sorted);
    }

    @Test
    void distributedLengthsStayInRangeAroundTheirMean() {
        Workload w = Workloads.create("shared-prefix", params("num_groups", "20", "num_prompts_per_group", "50",
                "system_prompt_len", "10", "question_len", "300:100:100:500", "output_len", "40:30:1:200",
                "concurrency", "1"), 3);
        int[] questions = w.requests().stream().mapToInt(r -> r.prompt().tokens().length - 10).toArray();
        int[] outputs = w.requests().stream().mapToInt(WorkloadRequest::maxTokens).toArray();
        assertThat(questions).hasSize(1000);
        assertThat(Arrays.stream(questions).min().orElseThrow()).isGreaterThanOrEqualTo(100);
        assertThat(Arrays.stream(questions).max().orElseThrow()).isLessThanOrEqualTo(500);
        assertThat(Arrays.stream(questions).average().orElseThrow()).isBetween(285.0, 315.0);
        assertThat(Arrays.stream(questions).distinct().count()).isGreaterThan(100);
        // the standard deviation is the requested one (clipping at ±2σ trims it a little)
        double mean = Arrays.stream(questions).average().orElseThrow();
        double sd = Math.sqrt(Arrays.stream(questions).mapToDouble(q -> (q - mean) * (q - mean)).sum() / 1000);
        assertThat(sd).isBetween(80.0, 105.0);
        assertThat(Arrays.stream(outputs).min().orElseThrow()).isGreaterThanOrEqualTo(1);
        assertThat(Arrays.stream(outputs).max().orElseThrow()).isLessThanOrEqualTo(200);
        for (WorkloadRequest r : w.requests()) {
            assertThat(TOKENIZER.encode(r.prompt().text())).isEqualTo(r.prompt().tokens());
        }
        assertThat(w.parameters()).containsEntry("question_len", "300:100:100:500");
    }

    @Test
    void inferencePerfDefaultsAndAliases() {
        Workload defaults = Workloads.create("shared-prefix", params("concurrency", "4"), 1);
        assertThat(defaults.requests()).hasSize(100);
        assertThat(defaults.requests().getFirst().prompt().tokens()).hasSize(150);
        assertThat(defaults.requests().getFirst().maxTokens()).isEqualTo(50);
        Workload aliased = Workloads.create("shared-prefix", params("num_unique_system_prompts", "3",
                "num_users_per_system_prompt", "2", "concurrency", "1"), 1);
        assertThat(aliased.requests()).hasSize(6);
        assertThat(aliased.parameters()).containsEntry("num_groups", 3).containsEntry("num_prompts_per_group", 2);
    }
}
