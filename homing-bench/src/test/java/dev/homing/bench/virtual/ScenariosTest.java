package dev.homing.bench.virtual;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.bench.policy.Policies;
import dev.homing.bench.workload.Workload;
import dev.homing.bench.workload.WorkloadRequest;
import dev.homing.bench.workload.WorkloadSpec;
import dev.homing.bench.workload.Workloads;
import dev.homing.sim.engine.EngineConfig;
import dev.homing.sim.engine.Preset;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScenariosTest {

    @Test
    void theCatalogHasTheLlmDBenchmarksQuickAndTheSuite() {
        assertThat(Scenarios.catalog()).extracting(Scenario::name).contains("llm-d-73", "llm-d-37", "quick",
                "suite-shared-prefix", "suite-multi-turn", "suite-cold-burst", "suite-zipf", "suite-long-context");
        assertThat(Scenarios.suite()).extracting(Scenario::workload)
                .containsExactly("shared-prefix", "multi-turn", "cold-burst", "zipf", "long-context", "overload",
                        "overload", "overload");
        for (Scenario s : Scenarios.catalog()) {
            assertThat(s.scrapeInterval()).isEqualTo(Duration.ofMillis(50));
            assertThat(s.kvEventLag()).isEqualTo(Duration.ofMillis(5));
            assertThat(s.policies()).isEqualTo(s.workload().equals("overload") ? Scenarios.OVERLOAD_POLICIES
                    : Policies.names());
        }
    }

    @Test
    void llmD73MakesLlmDsWorkloadWarmUpFirstThenTheLadder() {
        Scenario s = Scenarios.get("llm-d-73", Map.of());
        assertThat(s.pods()).isEqualTo(8);
        assertThat(s.preset()).isEqualTo("qwen3-32b-h100-tp2");
        Workload w = Workloads.create(s.workload(), s.workloadParameters(), 1);
        assertThat(w.stageQps()).containsExactly(15.0, 3.0, 10.0, 15.0, 20.0, 22.0, 25.0, 30.0, 35.0, 40.0, 43.0,
                46.0, 49.0, 52.0, 55.0, 57.0, 60.0);
        long afterWarmUp = w.requests().stream().filter(r -> r.stage() > 0).count();
        assertThat(afterWarmUp).isBetween(16_334L - 400, 16_334L + 400); // Poisson around llm-d's 16,334
        WorkloadRequest first = w.requests().get(0);
        assertThat(first.prompt().tokens()).hasSize(7_200);
        assertThat(first.maxTokens()).isEqualTo(1_000);
        assertThat(first.ignoreEos()).isTrue();
        assertThat(w.requests().stream().mapToInt(WorkloadRequest::group).distinct().count()).isEqualTo(150);
    }

    @Test
    void overridesChangeTheScenarioOrTheWorkload() {
        Scenario s = Scenarios.get("llm-d-73", Map.of("pods", "4", "policies", "homing, dynamo",
                "scrape_interval", "100ms", "kv_event_lag", "1ms", "output_len", "250"));
        assertThat(s.pods()).isEqualTo(4);
        assertThat(s.policies()).containsExactly("homing", "dynamo");
        assertThat(s.scrapeInterval()).isEqualTo(Duration.ofMillis(100));
        assertThat(s.kvEventLag()).isEqualTo(Duration.ofMillis(1));
        assertThat(s.workloadParameters()).containsEntry("output_len", "250").containsEntry("num_groups", "150");
    }

    @Test
    void badNamesAndValuesAreRefusedNamingThem() {
        assertThatThrownBy(() -> Scenarios.get("nope", Map.of())).hasMessageContaining("nope")
                .hasMessageContaining("llm-d-73");
        assertThatThrownBy(() -> Scenarios.get("quick", Map.of("policies", "homing,magic")))
                .hasMessageContaining("magic");
        assertThatThrownBy(() -> Scenarios.get("quick", Map.of("pods", "0"))).hasMessageContaining("pods");
        assertThatThrownBy(() -> Scenarios.get("quick", Map.of("scrape_interval", "soon")))
                .hasMessageContaining("scrape_interval");
    }

    @Test
    void suiteLongContextIsFrozenOnAPresetWhoseContextTakesItsLongestPrompts() {
        Scenario s = Scenarios.get("suite-long-context", Map.of());
        assertThat(s.pods()).isEqualTo(8);
        assertThat(s.preset()).isEqualTo("llama-3.1-70b-h100-tp4");
        // the workload's own defaults, frozen: only the load and the model are the scenario's
        assertThat(s.workloadParameters()).containsOnlyKeys("qps", "model")
                .containsEntry("qps", "3x1800,7x900");
        EngineConfig engine = Preset.byName(s.preset()).engine();
        // the frozen stages hold ~150 M prompt tokens: the same defaults on shorter stages fit a test's heap
        Map<String, String> shorter = new java.util.HashMap<>(s.workloadParameters());
        shorter.put("qps", "3x400,7x100");
        Workload w = Workloads.create(s.workload(), shorter, 1);
        assertThat(w.stageQps()).containsExactly(3.0, 7.0);
        int longest = 0;
        for (WorkloadRequest r : w.requests()) {
            assertThat(r.prompt().tokens().length + r.maxTokens()).as(r.id())
                    .isLessThanOrEqualTo(engine.maxModelLen());
            longest = Math.max(longest, r.prompt().tokens().length);
        }
        assertThat(longest).isGreaterThan(100_000);
        // every default of the workload, as frozen by issue 13: changing one is a new workload, not a tweak
        Map<String, String> defaults = new java.util.TreeMap<>();
        WorkloadSpec spec = Workloads.catalog().stream().filter(x -> x.name().equals("long-context")).findFirst()
                .orElseThrow();
        spec.parameters().stream().filter(p -> !p.defaultValue().isEmpty())
                .forEach(p -> defaults.put(p.name(), p.defaultValue()));
        assertThat(defaults).containsAllEntriesOf(Map.ofEntries(
                Map.entry("prompt_len_mu", "8.88"), Map.entry("prompt_len_sigma", "1.06"),
                Map.entry("prompt_len_max", "128000"), Map.entry("system_prompt_len", "512"),
                Map.entry("num_docs", "30000"), Map.entry("doc_zipf_s", "1.1"), Map.entry("doc_share", "0.8"),
                Map.entry("turns_mean", "1.5"), Map.entry("user_len", "150:100:20:1000"),
                Map.entry("output_len", "350:150:16:1024"), Map.entry("think_median_s", "1.6"),
                Map.entry("think_sigma", "2.5"), Map.entry("think_max_s", "600"),
                Map.entry("answer_ms_per_token", "25"), Map.entry("arrival_shape", "0.5")));
        assertThat(w.parameters()).containsEntry("prompt_len_mu", 8.88).containsEntry("doc_share", 0.8)
                .containsEntry("turns_mean", 1.5);
    }

    @Test
    void everySuiteScenarioMakesItsWorkload() {
        for (Scenario s : Scenarios.suite()) {
            Map<String, String> p = new java.util.HashMap<>(s.workloadParameters());
            if (s.name().equals("suite-long-context")) {
                p.put("qps", "3x60,7x30"); // its whole length is measured by the bench, not in a test's heap
            }
            if (s.workload().equals("overload")) {
                p.put("duration", "1"); // 240 requests/s of ~1k-token prompts: a second is enough to check it
            }
            assertThat(Workloads.create(s.workload(), p, 1).requests()).as(s.name()).isNotEmpty();
        }
    }
}
