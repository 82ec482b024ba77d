package dev.homing.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.homing.bench.result.BenchReport;
import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.result.RequestRecord;
import dev.homing.bench.result.Summary;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkloadResultsTest {

    @Test
    void stagesAreSummarisedFromTheirOwnRecords() {
        PolicyRun run = SampleReports.run("homing", "w", 0, 2, SampleReports.LADDER);
        RunSummary s = RunSummary.of(run);
        assertThat(s.stages()).extracting(StageSummary::stage).containsExactly(0, 1, 2);
        assertThat(s.stages()).extracting(StageSummary::offeredQps).containsExactlyElementsOf(SampleReports.LADDER);
        List<RequestRecord> stage1 = run.records().stream().filter(r -> r.stage() == 1).toList();
        assertThat(s.stages().get(1).summary()).isEqualTo(Summary.of(stage1));
        assertThat(s.total()).isEqualTo(Summary.of(run.records()));
    }

    @Test
    void aLadderStageWithoutRequestsStillShowsAndAStrayStageIsKept() {
        RequestRecord r = new RequestRecord("a", 3, 0, "p", 200, 1, 2, 10, 0, 2);
        RunSummary s = RunSummary.of(new PolicyRun("p", "w", List.of(r), List.of(), List.of(1.0, 2.0), 1));
        assertThat(s.stages()).extracting(StageSummary::stage).containsExactly(0, 1, 3);
        assertThat(s.stages().get(0).summary().requests()).isZero();
        assertThat(s.stages().get(2).offeredQps()).isZero();
    }

    @Test
    void groupsRunsByWorkloadInFirstSeenOrderWithTheirBound() {
        BenchReport report = SampleReports.report("open", List.of("a", "b"), true);
        List<WorkloadResults> ws = WorkloadResults.of(report);
        assertThat(ws).extracting(WorkloadResults::workload).containsExactly("open", "closed-loop");
        assertThat(ws.getFirst().runs()).extracting(RunSummary::policy).containsExactly("a", "b");
        assertThat(ws.get(0).hitRateBound()).isEqualTo(0.8);
        assertThat(ws.get(1).hitRateBound()).isNaN();
    }

    @Test
    void closedLoopIsPlottedAgainstTheRateItAchieved() {
        List<WorkloadResults> ws = WorkloadResults.of(SampleReports.report("open", List.of("a"), true));
        WorkloadResults open = ws.get(0);
        WorkloadResults closed = ws.get(1);
        assertThat(open.openLoop()).isTrue();
        assertThat(open.load(open.runs().getFirst().stages().get(2))).isEqualTo(8.0);
        assertThat(closed.openLoop()).isFalse();
        StageSummary only = closed.runs().getFirst().stages().getFirst();
        assertThat(closed.load(only)).isCloseTo(only.summary().requestsPerSecond(), within(1e-12)).isPositive();
        assertThat(closed.loadLabel()).contains("closed loop");
    }

    @Test
    void emptyReportHasNoWorkloads() {
        assertThat(WorkloadResults.of(new BenchReport("s", "live", 0, List.of(), Map.of(), Map.of(), "c"))).isEmpty();
    }
}
