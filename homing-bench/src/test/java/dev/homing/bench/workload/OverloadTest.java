package dev.homing.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OverloadTest {

    private static Workload create(Map<String, String> p, long seed) {
        return Workloads.create("overload", p, seed);
    }

    @Test
    void threeFlowsAtTenZeroAndMinusOneTheBatchFlowAtFiveTimesTheOthersRate() {
        Workload w = create(Map.of("duration", "20"), 5);
        // load 3 x capacity 80 = 240 requests/s for 20 s
        assertThat(w.stageQps()).containsExactly(240.0);
        assertThat(w.parameters()).containsEntry("load", 3.0).containsEntry("capacity_qps", 80.0)
                .containsEntry("arrival", "poisson");
        int n = w.requests().size();
        assertThat(n).isBetween(4_600, 5_000);
        Map<String, Long> byFlow = w.requests().stream().collect(java.util.stream.Collectors.groupingBy(
                WorkloadRequest::flow, java.util.stream.Collectors.counting()));
        assertThat(byFlow).containsOnlyKeys("interactive", "standard", "batch");
        assertThat(byFlow.get("interactive") / (double) n).isCloseTo(1 / 7.0, org.assertj.core.data.Offset.offset(0.015));
        assertThat(byFlow.get("standard") / (double) n).isCloseTo(1 / 7.0, org.assertj.core.data.Offset.offset(0.015));
        assertThat(byFlow.get("batch") / (double) n).isCloseTo(5 / 7.0, org.assertj.core.data.Offset.offset(0.02));
        for (WorkloadRequest r : w.requests()) {
            int expected = switch (r.flow()) {
                case "interactive" -> 10;
                case "standard" -> 0;
                default -> -1;
            };
            assertThat(r.priority()).isEqualTo(expected);
            assertThat(r.ignoreEos()).isTrue();
            assertThat(r.prompt().tokens().length).isBetween(1, 8192);
            assertThat(r.maxTokens()).isBetween(1, 1024);
            assertThat(r.conversation()).isEqualTo(-1);
        }
        // lognormal lengths around the Azure conversation trace's medians
        int[] prompts = w.requests().stream().mapToInt(r -> r.prompt().tokens().length).sorted().toArray();
        int[] outputs = w.requests().stream().mapToInt(WorkloadRequest::maxTokens).sorted().toArray();
        assertThat(prompts[n / 2]).isBetween(950, 1100);
        assertThat(outputs[n / 2]).isBetween(120, 140);
        long[] t = w.requests().stream().mapToLong(WorkloadRequest::arrivalNanos).toArray();
        assertThat(t).isSorted();
        assertThat(t[n - 1]).isLessThan(20_000_000_000L);
    }

    @Test
    void theSameSeedMakesTheSameFlowsAndAnotherSeedOthers() {
        Map<String, String> p = Map.of("load", "0.5", "duration", "5");
        List<String> a = create(p, 1).requests().stream().map(WorkloadRequest::flow).toList();
        List<String> b = create(p, 1).requests().stream().map(WorkloadRequest::flow).toList();
        List<String> c = create(p, 2).requests().stream().map(WorkloadRequest::flow).toList();
        assertThat(a).isEqualTo(b).isNotEqualTo(c);
        assertThat(Arrays.equals(create(p, 1).requests().getFirst().prompt().tokens(),
                create(p, 1).requests().getFirst().prompt().tokens())).isTrue();
    }

    @Test
    void flowsRatesAndLoadAreParameters() {
        Workload alone = create(Map.of("flows", "interactive:10:1", "load", "0.1", "duration", "10"), 3);
        assertThat(alone.stageQps()).containsExactly(8.0);
        assertThat(alone.requests()).allSatisfy(r -> {
            assertThat(r.flow()).isEqualTo("interactive");
            assertThat(r.priority()).isEqualTo(10);
        });
        Workload given = create(Map.of("qps", "12", "duration", "5"), 3);
        assertThat(given.stageQps()).containsExactly(12.0);
        Workload closed = create(Map.of("concurrency", "64", "num_requests", "100"), 3);
        assertThat(closed.closedLoop()).isTrue();
        assertThat(closed.requests()).hasSize(100);
        assertThatThrownBy(() -> create(Map.of("flows", "a:1"), 1)).hasMessageContaining("flows");
        assertThatThrownBy(() -> create(Map.of("flows", "a:1:1,a:2:1"), 1)).hasMessageContaining("distinct");
        assertThatThrownBy(() -> create(Map.of("flows", "a:1:0"), 1)).hasMessageContaining("above 0");
        assertThatThrownBy(() -> create(Map.of("load", "0"), 1)).hasMessageContaining("load");
    }
}
