package dev.homing.bench.report;

import dev.homing.bench.result.BenchReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The terminal report: per workload, one row per policy with the numbers a run is judged by, the best of each column
 * marked with {@code *}; then the QPS ladder, stage by stage, for TTFT p90 and output throughput.
 */
public final class TableReport {

    /** The columns of the per-policy table, in order. */
    static final List<Metric> COLUMNS = List.of(Metric.REQUESTS, Metric.TTFT_P50, Metric.TTFT_P90, Metric.TTFT_P99,
            Metric.ITL_MEAN, Metric.OUTPUT_TPS, Metric.HIT_RATE, Metric.HIT_VS_BOUND, Metric.ERRORS);

    /** The metrics shown stage by stage. */
    static final List<Metric> STAGE_METRICS = List.of(Metric.TTFT_P90, Metric.OUTPUT_TPS);

    private TableReport() {
    }

    public static String render(BenchReport report) {
        StringBuilder out = new StringBuilder();
        out.append("Scenario ").append(report.scenario()).append(" (").append(report.mode()).append(", seed ")
                .append(report.seed()).append(")\n");
        for (WorkloadResults w : WorkloadResults.of(report)) {
            out.append('\n').append("Workload ").append(w.workload()).append(": ").append(w.boundsLine())
                    .append("; hit rate / bound is against ").append(w.boundName()).append('\n');
            out.append(policyTable(w));
            String admission = admissionTable(w);
            if (!admission.isEmpty()) {
                out.append('\n').append("Admission per flow (seconds; queue: time held in flow control)\n")
                        .append(admission);
            }
            out.append('\n').append("Per-pod diagnostics\n").append(diagnosticsTable(w))
                    .append(DiagnosticColumns.NOTE).append('\n');
            String reports = pluginReports(w);
            if (!reports.isEmpty()) {
                out.append('\n').append("What the policies' plugins report\n").append(reports);
            }
            if (w.stageIndexes().size() > 1) {
                for (Metric m : STAGE_METRICS) {
                    out.append('\n').append(m.label()).append(" by stage\n").append(stageTable(w, m));
                }
            }
        }
        if (report.runs().isEmpty()) {
            out.append("\n(no runs)\n");
        } else {
            out.append("\n* best in its column (or row, by stage)\n");
        }
        return out.toString();
    }

    private static String policyTable(WorkloadResults w) {
        List<String> header = new ArrayList<>();
        header.add("policy");
        // marked columns end in a mark column: pad their headers so they line up over the digits
        COLUMNS.forEach(m -> header.add(m.label() + (m.better() == Metric.Better.NONE ? "" : " ")));
        String[][] cells = new String[w.runs().size()][COLUMNS.size()];
        for (int c = 0; c < COLUMNS.size(); c++) {
            Metric m = COLUMNS.get(c);
            double[] values = w.runs().stream().mapToDouble(r -> m.value(r.total(), w.bound())).toArray();
            boolean[] best = m.best(values);
            for (int r = 0; r < values.length; r++) {
                cells[r][c] = marked(m.format(values[r]), best[r], m);
            }
        }
        TextTable table = new TextTable(header);
        for (int r = 0; r < cells.length; r++) {
            List<String> row = new ArrayList<>();
            row.add(w.runs().get(r).policy());
            row.addAll(List.of(cells[r]));
            table.row(row);
        }
        return table.render();
    }

    /** Per policy and flow, what admission did; then each run's order and fairness checks. Empty without flows. */
    static String admissionTable(WorkloadResults w) {
        TextTable table = new TextTable(List.of("policy", "flow", "priority", "requests", "served", "429", "503",
                "lost", "TTFT p50", "TTFT p90", "queue p50", "queue p99", "queue max"));
        StringBuilder checks = new StringBuilder();
        boolean any = false;
        for (RunSummary r : w.runs()) {
            AdmissionSummary a = AdmissionSummary.of(r.run());
            if (a == null) {
                continue;
            }
            any = true;
            for (AdmissionSummary.FlowSummary f : a.flows()) {
                table.row(List.of(r.policy(), f.flow(), Integer.toString(f.priority()), Integer.toString(f.requests()),
                        Integer.toString(f.served()), Integer.toString(f.shed429()), Integer.toString(f.shed503()),
                        Integer.toString(f.lost()), seconds(f.ttftP50()), seconds(f.ttftP90()),
                        seconds(f.queueP50()), seconds(f.queueP99()), seconds(f.queueMax())));
            }
            checks.append(r.policy()).append(": dispatches past a waiting higher priority ").append(a.inversions())
                    .append("; priority >= 0 refused while a sheddable one was dispatched ")
                    .append(a.refusedWhileShedDispatched());
            for (AdmissionSummary.Fairness f : a.fairness()) {
                checks.append("; band ").append(f.priority()).append(" share x k - 1 over ").append(f.windows())
                        .append(" backlogged 10 s windows: ").append(percent(f.minDeviation())).append(" .. ")
                        .append(percent(f.maxDeviation()));
            }
            checks.append('\n');
        }
        return any ? table.render() + checks : "";
    }

    private static String seconds(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.3f", v) : "-";
    }

    private static String percent(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%+.1f%%", 100 * v) : "-";
    }

    private static String diagnosticsTable(WorkloadResults w) {
        List<String> header = new ArrayList<>(List.of("policy"));
        DiagnosticColumns.COLUMNS.forEach(c -> header.add(c.label()));
        TextTable table = new TextTable(header);
        for (RunSummary r : w.runs()) {
            List<String> row = new ArrayList<>(List.of(r.policy()));
            DiagnosticColumns.COLUMNS.forEach(c -> row.add(c.cell(r.diagnostics())));
            table.row(row);
        }
        return table.render();
    }

    /** One line per self-reporting plugin of each run: its numbers as name=value, 4 significant digits. */
    private static String pluginReports(WorkloadResults w) {
        StringBuilder b = new StringBuilder();
        for (RunSummary r : w.runs()) {
            r.run().pluginReports().forEach((plugin, numbers) -> {
                b.append(r.policy()).append(" / ").append(plugin).append(':');
                numbers.forEach((k, v) -> b.append(' ').append(k).append('=')
                        .append(Double.isFinite(v) ? String.format(Locale.ROOT, "%.4g", v) : "-"));
                b.append('\n');
            });
        }
        return b.toString();
    }

    private static String stageTable(WorkloadResults w, Metric m) {
        List<String> header = new ArrayList<>(List.of("stage", w.openLoop() ? "QPS" : "QPS (closed)"));
        w.runs().forEach(r -> header.add(r.policy() + " "));
        TextTable table = new TextTable(header);
        for (int stage : w.stageIndexes()) {
            WorkloadResults.StageRow s = w.stageRow(stage, m);
            List<String> row = new ArrayList<>();
            row.add(Integer.toString(stage));
            row.add(Double.isNaN(s.offeredQps()) ? "-" : String.format(Locale.ROOT, "%.2f", s.offeredQps()));
            for (int r = 0; r < s.values().length; r++) {
                row.add(marked(m.format(s.values()[r]), s.best()[r], m));
            }
            table.row(row);
        }
        return table.render();
    }

    /** A trailing mark column keeps the digits of marked and unmarked cells aligned. */
    private static String marked(String value, boolean best, Metric m) {
        return m.better() == Metric.Better.NONE ? value : value + (best ? "*" : " ");
    }
}
