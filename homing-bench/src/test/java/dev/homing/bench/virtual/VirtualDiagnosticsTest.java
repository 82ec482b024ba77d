package dev.homing.bench.virtual;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.homing.bench.policy.Policies;
import dev.homing.bench.report.PodDiagnostics;
import dev.homing.bench.result.BenchReport;
import dev.homing.bench.result.CacheBounds;
import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.result.RequestRecord;
import dev.homing.bench.workload.Prompt;
import dev.homing.bench.workload.Workload;
import dev.homing.bench.workload.WorkloadRequest;
import dev.homing.sim.engine.Preset;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The per-pod diagnostics of a virtual run end to end: queue times from the simulated scheduler through the records to
 * the report, on a run small enough to know the answer.
 */
class VirtualDiagnosticsTest {

    private static WorkloadRequest request(String id, long arrivalNanos, int[] tokens) {
        return new WorkloadRequest(id, arrivalNanos, 0, null, Prompt.text("unused", tokens), 4, true, -1, -1, 0);
    }

    @Test
    void aShortRequestArrivingDuringALongColdPrefillWaitsBehindIt() {
        Preset preset = Preset.QWEN3_32B_H100_TP2;
        int budget = preset.engine().maxNumBatchedTokens();
        // a cold prompt of 3.5 steps' budget at t = 0, then a short one 1 ms later, on one pod: the long prompt's
        // chunks fill the first three steps, so the short one is admitted only in the fourth
        int[] longPrompt = IntStream.range(0, budget * 7 / 2).map(i -> 1000 + i % 20_000).toArray();
        int[] shortPrompt = IntStream.range(0, 100).map(i -> 50_000 + i).toArray();
        Workload w = new Workload("two", List.of(request("long", 0, longPrompt),
                request("short", 1_000_000, shortPrompt)), List.of(1.0), 0, Map.of());
        Scenario one = new Scenario("one-pod", "test", preset.id(), 1, "two", Map.of(), List.of(Policies.ROUND_ROBIN),
                Duration.ofMillis(50), Duration.ofMillis(5));
        BenchReport report = VirtualBench.run(one, w, List.of(), 1, (p, f) -> { }, 1);
        PolicyRun run = report.runs().getFirst();
        RequestRecord lng = run.records().get(0);
        RequestRecord shrt = run.records().get(1);

        assertThat(lng.queueNanos()).as("admitted at once on an idle pod").isZero();
        // before the scheduler sees it: the preset's per-request front-end overhead
        assertThat(lng.scheduledNanos()).isPositive();
        assertThat(lng.prefillNanos()).isEqualTo(lng.ttftNanos() - lng.scheduledNanos()).isPositive();
        // the short one waits while the long one's chunks run, and is admitted before the long one's first token
        // (the fourth step has room for both)
        assertThat(shrt.queueNanos()).isPositive();
        assertThat(shrt.arrivalNanos() + shrt.scheduledNanos() - shrt.queueNanos())
                .as("it joined the queue while the long prefill ran")
                .isGreaterThan(lng.arrivalNanos() + lng.scheduledNanos());
        assertThat(shrt.arrivalNanos() + shrt.scheduledNanos()).isLessThan(lng.arrivalNanos() + lng.ttftNanos());
        assertThat(shrt.prefillNanos()).isPositive();

        PodDiagnostics d = PodDiagnostics.of(run);
        assertThat(d.pods()).isEqualTo(1);
        assertThat(d.uncachedMax()).isEqualTo(longPrompt.length + shortPrompt.length);
        assertThat(d.uncachedMean()).isEqualTo(longPrompt.length + shortPrompt.length);
        assertThat(d.behindLongPrefill()).isCloseTo(0.5, within(1e-12));
        assertThat(d.queueP99()).isCloseTo(shrt.queueNanos() / 1e9, within(1e-12));

        // the fleet's pooled capacity is the pod's usable blocks; nothing repeats, so every bound is 0
        CacheBounds pooled = report.cacheBounds().get("two");
        assertThat(pooled.capacityBlocks()).isEqualTo(preset.engine().numGpuBlocks() - 1);
        assertThat(pooled.belady()).isZero();
        assertThat(report.parameters()).containsEntry("fleet_kv_blocks", pooled.capacityBlocks());
    }
}
