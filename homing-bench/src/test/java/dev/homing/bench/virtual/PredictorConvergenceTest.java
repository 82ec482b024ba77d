package dev.homing.bench.virtual;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.homing.bench.policy.Policies;
import dev.homing.bench.result.BenchReport;
import dev.homing.bench.result.PolicyRun;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Homing's predictor fitted online on simulated pods: the coefficients it learns from the TTFTs it observes are the
 * simulator's own cost model (Llama-3.1-70B TP4: 0.14 s of per-request overhead, 71.3 µs a prefill token, attention at
 * 1/53,825 of that per query-key pair), which the router was never told, and its predictions land near what happens.
 */
class PredictorConvergenceTest {

    private static PolicyRun run(String policy) {
        // the long-context workload, 2 pods, 1 request/s for 10 minutes: ~600 requests of 300 to 100k tokens
        Scenario s = Scenarios.get("suite-long-context", Map.of("pods", "2", "qps", "1x600"));
        BenchReport r = VirtualBench.run(s, List.of(policy), 1, (p, f) -> { }, 1);
        return r.runs().get(0);
    }

    @Test
    void fedByKvEventsItLearnsTheSimulatorsCostModelAndPredictsWithinAFewPercent() {
        Map<String, Double> r = run(Policies.HOMING_PRECISE).pluginReports().get("predicted-ttft-scorer");
        assertThat(r.get("predictions")).isGreaterThan(400);
        assertThat(r.get("interceptSeconds")).isCloseTo(0.14, within(0.03));
        assertThat(r.get("secondsPer10kTokens")).isCloseTo(0.713, within(0.1));
        assertThat(r.get("secondsPer1e8Attention")).isCloseTo(0.1325, within(0.06));
        assertThat(r.get("medianRelativeError")).isLessThan(0.10);
    }

    @Test
    void withTheApproximateIndexItStillLearnsTheLawFromWhatTheResponsesSayWasCached() {
        Map<String, Double> r = run(Policies.HOMING).pluginReports().get("predicted-ttft-scorer");
        assertThat(r.get("interceptSeconds")).isCloseTo(0.14, within(0.05));
        assertThat(r.get("secondsPer10kTokens")).isCloseTo(0.713, within(0.15));
        // its predictions are only as good as its guess of what each pod holds
        assertThat(r.get("medianRelativeError")).isLessThan(0.35);
    }
}
