package dev.homing.bench.workload;

import static dev.homing.bench.workload.WorkloadAssertions.assertSameWorkload;
import static dev.homing.bench.workload.WorkloadAssertions.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WorkloadsTest {

    @TempDir
    static Path dir;

    /** Small instances of every workload, with scheduled arrivals where they have them. */
    private static Map<String, String> small(String name) throws Exception {
        return switch (name) {
            case "shared-prefix" -> params("num_groups", "3", "num_prompts_per_group", "2", "question_len",
                    "20:5:10:30", "qps", "20x2,40x1");
            case "multi-turn" -> params("num_groups", "2", "num_prompts_per_group", "2", "num_turns", "3",
                    "output_len", "5:2:1:9", "qps", "30", "duration", "2");
            case "cold-burst" -> params("num_requests", "7");
            case "zipf" -> params("num_groups", "6", "zipf_s", "1.3", "qps", "25", "duration", "2");
            case "long-context" -> params("num_docs", "4", "prompt_len_max", "6000", "qps", "10", "duration", "3");
            case "overload" -> params("load", "0.5", "duration", "2");
            case "trace" -> {
                Path f = dir.resolve("small.jsonl");
                Files.writeString(f, """
                        {"timestamp": 0, "input_length": 700, "output_length": 3, "hash_ids": [1, 2]}
                        {"timestamp": 250, "input_length": 900, "output_length": 4, "hash_ids": [1, 3]}
                        """);
                yield params("file", f.toString());
            }
            default -> throw new IllegalArgumentException(name);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"shared-prefix", "multi-turn", "cold-burst", "zipf", "long-context", "overload", "trace"})
    void theSameSeedMakesTheSameWorkloadAndAnotherSeedAnother(String name) throws Exception {
        Workload a = Workloads.create(name, small(name), 42);
        Workload b = Workloads.create(name, small(name), 42);
        assertThat(a.requests()).isNotEmpty();
        assertSameWorkload(a, b);
        assertThat(a.parameters()).containsEntry("seed", 42L);
        if (!name.equals("cold-burst")) {
            Workload c = Workloads.create(name, small(name), 43);
            boolean differs = !WorkloadAssertions.samePrompts(a, c)
                    || !a.requests().stream().map(WorkloadRequest::arrivalNanos).toList()
                            .equals(c.requests().stream().map(WorkloadRequest::arrivalNanos).toList());
            assertThat(differs).as("another seed, another workload").isTrue();
        }
    }

    @Test
    void aSeedParameterOverridesTheRunsSeed() throws Exception {
        Map<String, String> p = new HashMap<>(small("shared-prefix"));
        p.put("seed", "7");
        assertSameWorkload(Workloads.create("shared-prefix", p, 1), Workloads.create("shared-prefix", p, 2));
        assertSameWorkload(Workloads.create("shared-prefix", p, 1),
                Workloads.create("shared-prefix", small("shared-prefix"), 7));
    }

    @Test
    void theCatalogDescribesEveryWorkloadAndEachWorksWithItsDefaults() {
        assertThat(Workloads.catalog()).extracting(WorkloadSpec::name)
                .containsExactly("shared-prefix", "multi-turn", "cold-burst", "zipf", "long-context", "overload",
                        "trace");
        for (WorkloadSpec spec : Workloads.catalog()) {
            assertThat(spec.description()).isNotBlank();
            assertThat(spec.parameters()).extracting(WorkloadSpec.Parameter::name)
                    .contains("qps", "duration", "concurrency", "num_requests", "model", "ignore_eos", "seed")
                    .doesNotHaveDuplicates();
            assertThat(spec.parameters()).allSatisfy(p -> assertThat(p.description()).isNotBlank());
            if (!spec.name().equals("trace")) {
                // overload's defaults offer 3 x 80 requests/s for a minute: 14k prompts, too many for a unit test
                Workload w = Workloads.create(spec.name(), spec.name().equals("overload")
                        ? Map.of("duration", "1") : Map.of(), 1);
                assertThat(w.requests()).isNotEmpty();
                assertThat(w.name()).isEqualTo(spec.name());
            }
        }
        WorkloadSpec shared = Workloads.catalog().getFirst();
        assertThat(shared.parameters()).extracting(WorkloadSpec.Parameter::name).startsWith("num_groups",
                "num_prompts_per_group", "system_prompt_len", "question_len", "output_len");
        assertThat(shared.parameters()).filteredOn(p -> p.name().equals("qps"))
                .singleElement().extracting(WorkloadSpec.Parameter::defaultValue).isEqualTo("5");
    }

    @Test
    void defaultsOfSyntheticWorkloadsArePoissonAtFiveQpsForAMinute() {
        Workload w = Workloads.create("shared-prefix", Map.of(), 3);
        assertThat(w.stageQps()).containsExactly(5.0);
        assertThat(w.requests().size()).isBetween(200, 400);
        assertThat(w.requests().getLast().arrivalNanos()).isLessThan(60_000_000_000L);
        assertThat(w.parameters()).containsEntry("qps", "5").containsEntry("duration", 60.0);
    }

    @Test
    void unknownNamesAndBadValuesAreRefusedNamingThemAndTheKnownOnes() {
        assertThatThrownBy(() -> Workloads.create("sharedprefix", Map.of(), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sharedprefix")
                .hasMessageContaining("shared-prefix, multi-turn, cold-burst, zipf, long-context, overload, trace");
        assertThatThrownBy(() -> Workloads.create("shared-prefix", params("num_group", "3"), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'num_group'")
                .hasMessageContaining("num_groups").hasMessageContaining("question_len");
        assertThatThrownBy(() -> Workloads.create("shared-prefix", params("question_len", "ten"), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("question_len")
                .hasMessageContaining("'ten'").hasMessageContaining("known:");
        assertThatThrownBy(() -> Workloads.create("shared-prefix", params("question_len", "50:10:60:100"), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("question_len")
                .hasMessageContaining("mean");
        assertThatThrownBy(() -> Workloads.create("shared-prefix", params("output_len", "0"), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("output_len");
        assertThatThrownBy(() -> Workloads.create("zipf", params("zipf_s", "-1"), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("zipf_s");
        assertThatThrownBy(() -> Workloads.create("zipf", params("ignore_eos", "yes"), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ignore_eos");
        assertThatThrownBy(() -> Workloads.create("cold-burst", params("speed", "2"), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'speed'");
        assertThatThrownBy(() -> Workloads.create("trace", Map.of(), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("file");
    }

    @Test
    void modelAndIgnoreEosReachEveryRequest() {
        Workload w = Workloads.create("zipf", params("model", "Qwen/Qwen3-32B", "ignore_eos", "false",
                "concurrency", "1", "num_requests", "5"), 1);
        assertThat(w.requests()).allMatch(r -> r.model().equals("Qwen/Qwen3-32B") && !r.ignoreEos());
    }
}
