package dev.homing.bench.virtual;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.bench.policy.Policies;
import dev.homing.bench.result.BenchReport;
import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.result.RequestRecord;
import dev.homing.bench.result.Summary;
import dev.homing.bench.workload.Workload;
import dev.homing.bench.workload.WorkloadRequest;
import dev.homing.bench.workload.Workloads;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class VirtualBenchTest {

    private static final Scenario QUICK = Scenarios.get("quick", Map.of());

    private static Map<String, Summary> summaries(BenchReport r) {
        Map<String, Summary> m = new HashMap<>();
        for (PolicyRun run : r.runs()) {
            m.put(run.policy(), Summary.of(run.records()));
        }
        return m;
    }

    @Test
    void theSameSeedGivesTheSameRecordsAndAnotherSeedOthers() {
        BenchReport a = VirtualBench.run(QUICK, List.of(), 7, (p, f) -> { }, 2);
        BenchReport b = VirtualBench.run(QUICK, List.of(), 7, (p, f) -> { }, 2);
        BenchReport c = VirtualBench.run(QUICK, List.of(), 8, (p, f) -> { }, 2);
        assertThat(a.runs()).hasSize(Policies.names().size());
        for (int i = 0; i < a.runs().size(); i++) {
            PolicyRun x = a.runs().get(i);
            assertThat(x.records()).as(x.policy()).isEqualTo(b.runs().get(i).records());
            assertThat(x.load()).as(x.policy()).isEqualTo(b.runs().get(i).load());
            assertThat(x.records()).as(x.policy()).isNotEqualTo(c.runs().get(i).records());
            assertThat(x.records()).as(x.policy()).allSatisfy(r -> {
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.ttftNanos()).isPositive();
                assertThat(r.e2eNanos()).isGreaterThanOrEqualTo(r.ttftNanos());
                assertThat(r.outputTokens()).isEqualTo(40);
            });
        }
    }

    @Test
    void everyPolicyRunsTheSameWorkloadOnFreshPods() {
        BenchReport r = VirtualBench.run(QUICK, List.of(Policies.ROUND_ROBIN, Policies.HOMING), 3, (p, f) -> { }, 1);
        List<RequestRecord> rr = r.runs().get(0).records();
        List<RequestRecord> h = r.runs().get(1).records();
        assertThat(rr).extracting(RequestRecord::id).isEqualTo(h.stream().map(RequestRecord::id).toList());
        assertThat(rr).extracting(RequestRecord::arrivalNanos)
                .isEqualTo(h.stream().map(RequestRecord::arrivalNanos).toList());
        // Round robin deals in turn from pod-0 on fresh pods.
        assertThat(rr.subList(0, 5)).extracting(RequestRecord::pod)
                .containsExactly("pod-0", "pod-1", "pod-2", "pod-3", "pod-0");
        assertThat(r.hitRateBounds()).containsOnlyKeys("shared-prefix");
        assertThat(r.mode()).isEqualTo("virtual");
    }

    @Test
    void onACacheHeavyLoadCacheAwareRoutingHitsMoreAndAnswersSoonerThanRandom() {
        // 16 groups of 3,000-token system prompts at a rate that a cache-blind fleet of 4 cannot prefill.
        Scenario heavy = Scenarios.get("quick", Map.of("num_groups", "16", "system_prompt_len", "3000",
                "qps", "14x20"));
        BenchReport r = VirtualBench.run(heavy, List.of(Policies.RANDOM, Policies.HOMING, Policies.HOMING_PRECISE,
                Policies.LLM_D_PRECISE, Policies.SGLANG, Policies.DYNAMO), 11, (p, f) -> { }, 2);
        Map<String, Summary> s = summaries(r);
        double bound = r.hitRateBounds().get("shared-prefix");
        for (String cacheAware : List.of(Policies.HOMING, Policies.HOMING_PRECISE, Policies.LLM_D_PRECISE,
                Policies.SGLANG, Policies.DYNAMO)) {
            assertThat(s.get(cacheAware).hitRate()).as(cacheAware).isGreaterThan(s.get(Policies.RANDOM).hitRate());
            assertThat(s.get(cacheAware).hitRate()).as(cacheAware).isLessThanOrEqualTo(bound);
        }
        assertThat(s.get(Policies.HOMING).ttftP90()).isLessThan(s.get(Policies.RANDOM).ttftP90());
        assertThat(s.get(Policies.HOMING_PRECISE).ttftP90()).isLessThan(s.get(Policies.RANDOM).ttftP90());
    }

    @Test
    void aTurnIsSentOnlyAfterThePreviousTurnOfItsConversationEnded() {
        Workload w = Workloads.create("multi-turn", Map.of("num_groups", "2", "num_prompts_per_group", "3",
                "num_turns", "3", "system_prompt_len", "300", "question_len", "50", "output_len", "30",
                "qps", "20x2", "model", "Qwen/Qwen3-32B"), 5);
        BenchReport r = VirtualBench.run(QUICK, w, List.of(Policies.HOMING), 5, (p, f) -> { }, 1);
        List<RequestRecord> records = r.runs().get(0).records();
        Map<Long, Integer> byTurn = new HashMap<>();
        int checked = 0;
        for (int i = 0; i < w.requests().size(); i++) {
            WorkloadRequest q = w.requests().get(i);
            RequestRecord rec = records.get(i);
            assertThat(rec.arrivalNanos()).isGreaterThanOrEqualTo(q.arrivalNanos());
            Integer prev = byTurn.get(((long) q.conversation() << 32) | (q.turn() - 1));
            if (q.turn() > 0 && prev != null) {
                RequestRecord p = records.get(prev);
                assertThat(rec.arrivalNanos()).isGreaterThanOrEqualTo(p.arrivalNanos() + p.e2eNanos());
                checked++;
            }
            byTurn.put(((long) q.conversation() << 32) | q.turn(), i);
        }
        assertThat(checked).isPositive();
    }

    @Test
    void aClosedLoopKeepsAtMostItsConcurrencyInFlight() {
        Workload w = Workloads.create("shared-prefix", Map.of("num_groups", "4", "num_prompts_per_group", "5",
                "system_prompt_len", "500", "question_len", "50", "output_len", "20", "concurrency", "3",
                "model", "Qwen/Qwen3-32B"), 9);
        BenchReport r = VirtualBench.run(QUICK, w, List.of(Policies.RANDOM), 9, (p, f) -> { }, 1);
        List<long[]> events = new ArrayList<>();
        for (RequestRecord rec : r.runs().get(0).records()) {
            events.add(new long[] {rec.arrivalNanos(), 1});
            events.add(new long[] {rec.arrivalNanos() + rec.e2eNanos(), -1});
        }
        // Ends before starts at the same instant: the slot a request frees is the one the next one takes.
        events.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
        int inFlight = 0;
        int most = 0;
        for (long[] e : events) {
            inFlight += (int) e[1];
            most = Math.max(most, inFlight);
        }
        assertThat(most).isEqualTo(3);
        assertThat(r.runs().get(0).records()).hasSize(20);
    }

    @Test
    void progressIsReportedPerPolicyUpToCompletion() {
        Map<String, Double> last = new ConcurrentHashMap<>();
        VirtualBench.run(QUICK, List.of(Policies.RANDOM, Policies.DYNAMO), 1, last::put, 2);
        assertThat(last).containsEntry(Policies.RANDOM, 1.0).containsEntry(Policies.DYNAMO, 1.0);
    }

    @Test
    void anUnknownPolicyFailsBeforeAnythingRuns() {
        assertThatThrownBy(() -> VirtualBench.run(QUICK, List.of("round-robin", "nope"), 1, (p, f) -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nope");
    }
}
