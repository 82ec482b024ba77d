package dev.homing.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.bench.result.BenchReport;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableReportTest {

    private static final List<String> POLICIES = List.of("homing", "round-robin", "random");

    @Test
    void whatAPolicysPluginsReportIsPrintedUnderItsRunAndCarriedInTheJson() throws Exception {
        BenchReport base = SampleReports.report("shared-prefix", POLICIES, false);
        java.util.List<dev.homing.bench.result.PolicyRun> runs = new java.util.ArrayList<>();
        for (dev.homing.bench.result.PolicyRun r : base.runs()) {
            runs.add(r.policy().equals(POLICIES.get(1))
                    ? new dev.homing.bench.result.PolicyRun(r.policy(), r.workload(), r.records(), r.load(),
                            r.stageQps(), r.wallNanos(), Map.of("predicted-ttft-scorer",
                                    new java.util.LinkedHashMap<>(Map.of("medianRelativeError", 0.0421))))
                    : r);
        }
        BenchReport report = new BenchReport(base.scenario(), base.mode(), base.seed(), runs, base.hitRateBounds(),
                base.cacheBounds(), base.parameters(), base.command());
        String out = TableReport.render(report);
        assertThat(out).contains("What the policies' plugins report")
                .contains(POLICIES.get(1) + " / predicted-ttft-scorer: medianRelativeError=0.04210");
        assertThat(TableReport.render(base)).doesNotContain("plugins report");
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(JsonReport.render(report));
        assertThat(json.get("runs").get(1).get("pluginReports").get("predicted-ttft-scorer")
                .get("medianRelativeError").asDouble()).isEqualTo(0.0421);
        assertThat(json.get("runs").get(0).get("pluginReports").isEmpty()).isTrue();
    }

    @Test
    void onePolicyRowPerRunWithTheBestOfEachColumnMarked() {
        String out = TableReport.render(SampleReports.report("shared-prefix", POLICIES, false));
        List<String> lines = out.lines().toList();
        int header = indexOf(lines, "policy ");
        List<String> columns = cells(lines.get(header));
        assertThat(columns).containsExactly("policy", "requests", "TTFT p50 (s)", "TTFT p90 (s)", "TTFT p99 (s)",
                "ITL mean (ms)", "output tok/s", "hit rate", "hit rate / bound", "errors");
        List<String> homing = cells(lines.get(header + 1));
        List<String> random = cells(lines.get(header + 3));
        assertThat(homing.getFirst()).isEqualTo("homing");
        assertThat(random.getFirst()).isEqualTo("random");
        // homing is fastest, caches most, fails least: every directional column marks it and not the others
        for (int c = 2; c < columns.size(); c++) {
            assertThat(homing.get(c)).as(columns.get(c)).endsWith("*");
            assertThat(random.get(c)).as(columns.get(c)).doesNotEndWith("*");
        }
        assertThat(homing.get(1)).isEqualTo("60");
        assertThat(homing.get(columns.indexOf("hit rate"))).isEqualTo("70.0%*");
        assertThat(homing.get(columns.indexOf("hit rate / bound"))).isEqualTo("0.93*"); // 0.70 / Belady's 0.75
        assertThat(random.get(columns.indexOf("errors"))).isEqualTo("3");
    }

    @Test
    void theBoundsAreNamedAndTheDiagnosticsTabled() {
        String out = TableReport.render(SampleReports.report("shared-prefix", POLICIES, false));
        assertThat(out).contains("Workload shared-prefix: hit-rate bound 75.0% (Belady, one cache of the fleet's 300 KV"
                + " blocks; LRU of the same: 60.0%); infinite cache 80.0%; hit rate / bound is against Belady");
        List<String> lines = out.lines().toList();
        int header = indexOf(lines, "Per-pod diagnostics") + 1;
        assertThat(cells(lines.get(header)).getFirst()).isEqualTo("policy");
        assertThat(lines.get(header)).contains("uncached prefill/pod max (k tok)", "behind long prefill",
                "queue p99 (s)", "own prefill p99 (s)");
        // round-robin (policy 1 of 3): 100 prompt tokens, 60 cached, so 40 uncached per served request. Of each
        // stage's k = 0..19, pod 0 takes k % 4 == 0 or k % 3 == 0 (10), pod 1 k % 3 == 1 else (1, 10, 13, 19; k = 7
        // fails), pod 2 k % 3 == 2 else (5): over 3 stages 1,200 / 480 / 600 tokens, mean 760
        List<String> rr = cells(lines.get(header + 2));
        assertThat(rr.subList(0, 4)).containsExactly("round-robin", "1.2", "0.8", "1.58");
        // the sample records carry no queue time (as a live run's): those columns are "-"
        assertThat(rr.subList(5, 9)).containsOnly("-");
    }

    @Test
    void columnsLineUp() {
        String out = TableReport.render(SampleReports.report("shared-prefix", POLICIES, false));
        List<String> lines = out.lines().toList();
        int header = indexOf(lines, "policy ");
        int end = lines.get(header).indexOf("TTFT p90 (s)") + "TTFT p90 (s)".length();
        for (int r = 1; r <= POLICIES.size(); r++) {
            // a marked and an unmarked cell end in the same place: the mark has a column of its own
            assertThat(lines.get(header + r).charAt(end)).as(lines.get(header + r)).isIn('*', ' ');
            assertThat(lines.get(header + r).charAt(end - 1)).isBetween('0', '9');
        }
    }

    @Test
    void theQpsLadderIsTabledStageByStage() {
        String out = TableReport.render(SampleReports.report("shared-prefix", POLICIES, false));
        List<String> lines = out.lines().toList();
        int p90 = indexOf(lines, "TTFT p90 (s) by stage");
        assertThat(cells(lines.get(p90 + 1))).containsExactly("stage", "QPS", "homing", "round-robin", "random");
        for (int stage = 0; stage < SampleReports.LADDER.size(); stage++) {
            List<String> row = cells(lines.get(p90 + 2 + stage));
            assertThat(row.get(0)).isEqualTo(Integer.toString(stage));
            assertThat(Double.parseDouble(row.get(1))).isEqualTo(SampleReports.LADDER.get(stage));
            assertThat(row.get(2)).endsWith("*");
        }
        assertThat(out).contains("output tok/s by stage");
    }

    @Test
    void unknownBoundAndEmptyReportPrintDashesNotNaN() {
        BenchReport report = SampleReports.report("w", POLICIES, true);
        String out = TableReport.render(report);
        assertThat(out).contains("Workload closed-loop: hit-rate bound -").doesNotContain("NaN");
        BenchReport empty = new BenchReport("none", "virtual", 1, List.of(), Map.of(), Map.of(), "x");
        assertThat(TableReport.render(empty)).contains("(no runs)");
    }

    private static int indexOf(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new AssertionError("no line starts with '" + prefix + "' in\n" + String.join("\n", lines));
    }

    private static List<String> cells(String line) {
        return Arrays.stream(line.trim().split(" {2,}")).map(String::trim).toList();
    }
}
