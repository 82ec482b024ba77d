package dev.homing.bench.virtual;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.bench.policy.Policies;
import dev.homing.bench.report.AdmissionSummary;
import dev.homing.bench.result.BenchReport;
import dev.homing.bench.result.FlowRecord;
import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.result.RequestRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A few seconds of {@code suite-overload} on two pods, far past their capacity, with flow control (a tight cap and a
 * 2 s TTL so requests expire), legacy admission and none: the invariants that must always hold.
 */
class OverloadRunTest {

    private static final long TTL = 2_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void everyRequestIsAnsweredAndFlowControlKeepsStrictPriority() throws Exception {
        Path strict = dir.resolve("fc.yaml");
        Files.writeString(strict, Policies.flowControlled(false, false).replace("defaultRequestTTL: 30s",
                "defaultRequestTTL: 2s").replace("maxConcurrency: " + Policies.FLOW_MAX_CONCURRENCY,
                "maxConcurrency: 12"));
        Path rr = dir.resolve("rr.yaml");
        Files.writeString(rr, Policies.flowControlled(true, false).replace("defaultRequestTTL: 30s",
                "defaultRequestTTL: 2s").replace("maxConcurrency: " + Policies.FLOW_MAX_CONCURRENCY,
                "maxConcurrency: 12"));
        Scenario s = Scenarios.get("suite-overload", Map.of("pods", "2", "qps", "40", "duration", "8",
                "prompt_len_median", "400", "output_len_median", "60"));
        BenchReport report = VirtualBench.run(s, List.of("fc=" + strict, "fc-rr=" + rr, Policies.HOMING,
                Policies.HOMING_NO_ADMISSION), 11, (p, f) -> { }, 2);
        for (PolicyRun run : report.runs()) {
            assertThat(run.flows()).as(run.policy()).hasSameSizeAs(run.records());
            // answered: served, 429 or 503; none lost
            assertThat(run.records()).as(run.policy())
                    .allSatisfy(r -> assertThat(r.status()).isIn(200, 429, 503));
        }
        for (PolicyRun run : report.runs().subList(0, 2)) {
            List<RequestRecord> r = run.records();
            List<FlowRecord> f = run.flows();
            assertThat(r).as("some wait past the TTL").anySatisfy(x -> assertThat(x.status()).isEqualTo(503));
            for (int i = 0; i < r.size(); i++) {
                assertThat(f.get(i).queueNanos()).isBetween(0L, TTL); // nothing waits past its TTL
                if (r.get(i).status() == 503) {
                    assertThat(f.get(i).queueNanos()).isEqualTo(TTL); // expired exactly at its deadline
                }
            }
            // strict priority: nothing is dispatched while a more important request waits across that instant
            for (int d = 0; d < r.size(); d++) {
                if (!f.get(d).dispatched()) {
                    continue;
                }
                long t = left(r, f, d);
                for (int w = 0; w < r.size(); w++) {
                    boolean waitingAcross = r.get(w).arrivalNanos() < t && left(r, f, w) > t;
                    assertThat(f.get(w).priority() > f.get(d).priority() && waitingAcross)
                            .as("%s dispatched at %d while %s waited", r.get(d).id(), t, r.get(w).id()).isFalse();
                }
            }
            // no priority >= 0 request is refused while a sheddable one is dispatched during its wait
            for (int i = 0; i < r.size(); i++) {
                if (f.get(i).priority() < 0 || r.get(i).ok()) {
                    continue;
                }
                for (int d = 0; d < r.size(); d++) {
                    if (f.get(d).dispatched() && f.get(d).priority() < 0) {
                        long t = left(r, f, d);
                        assertThat(t >= r.get(i).arrivalNanos() && t < left(r, f, i)).isFalse();
                    }
                }
            }
            AdmissionSummary a = AdmissionSummary.of(run);
            assertThat(a.inversions()).isZero();
            assertThat(a.refusedWhileShedDispatched()).isZero();
            assertThat(a.flows()).allSatisfy(x -> assertThat(x.lost()).isZero());
        }
        // legacy admission sheds sheddable requests only, with 429 (the default detector, queue 5 and KV 0.8, may not
        // read saturated on this light load); without admission nothing is shed
        PolicyRun legacy = report.runs().get(2);
        for (int i = 0; i < legacy.records().size(); i++) {
            int status = legacy.records().get(i).status();
            assertThat(status).isIn(200, 429);
            if (status == 429) {
                assertThat(legacy.flows().get(i).priority()).isNegative();
            }
        }
        assertThat(report.runs().get(3).records()).allSatisfy(x -> assertThat(x.status()).isEqualTo(200));
    }

    private static long left(List<RequestRecord> r, List<FlowRecord> f, int i) {
        return r.get(i).arrivalNanos() + f.get(i).queueNanos();
    }
}
