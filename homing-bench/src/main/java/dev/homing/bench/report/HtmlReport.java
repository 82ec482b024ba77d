package dev.homing.bench.report;

import static dev.homing.bench.report.Markup.escape;

import dev.homing.bench.result.BenchReport;
import dev.homing.bench.result.LoadSample;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * The report as one self-contained HTML page: inline CSS and SVG drawn here, no script, no font or image to fetch,
 * and a content security policy that forbids fetching anything, so it reads the same offline, attached to an issue
 * or years later. Per workload: the summary table, TTFT p50/p90/p99 and output throughput against load (one line per
 * policy), the hit rate of each policy against the bound, the QPS ladder as tables, and each pod's load over time
 * (one small chart per policy, on a shared scale so they compare at a glance).
 */
public final class HtmlReport {

    private static final int WIDE = 640;
    private static final int TALL = 320;
    private static final int SMALL_WIDE = 470;
    private static final int SMALL_TALL = 230;
    /** More points than pixels across only bloats the page. */
    private static final int MAX_POINTS = 400;

    private static final String CSS = """
            body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",Arial,sans-serif;margin:24px;\
            color:#1b1b1b;background:#fff;max-width:1500px}
            h1{font-size:22px;margin:0 0 8px}h2{font-size:19px;margin:32px 0 4px;border-bottom:2px solid #ccc}\
            h3{font-size:15px;margin:18px 0 6px}
            table{border-collapse:collapse;margin:6px 0 14px;font-size:13px}caption{text-align:left;font-weight:600;\
            padding:4px 0}
            th,td{padding:3px 10px;border-bottom:1px solid #e1e1e1;text-align:left}\
            .num{text-align:right;font-variant-numeric:tabular-nums}
            td.best{font-weight:700;background:#e8f3ea}
            .charts{display:flex;flex-wrap:wrap;gap:14px}
            svg.chart{background:#fff;border:1px solid #e4e4e4}
            svg text{font-size:11px;fill:#333}svg .chart-title{font-size:13px;font-weight:600;fill:#1b1b1b}
            svg .grid{stroke:#ececec}svg .tick{stroke:#888}svg .frame{stroke:#777;fill:none}
            pre{background:#f5f5f5;padding:8px;white-space:pre-wrap;word-break:break-all}
            .note{color:#555;font-size:13px;max-width:900px}
            """;

    private final BenchReport report;
    private final Map<String, Integer> policyIndex = new LinkedHashMap<>();
    private final StringBuilder html = new StringBuilder();
    private int charts;

    private HtmlReport(BenchReport report) {
        this.report = report;
        report.runs().forEach(r -> policyIndex.putIfAbsent(r.policy(), policyIndex.size()));
    }

    public static String render(BenchReport report) {
        return new HtmlReport(report).page();
    }

    private String page() {
        String title = "Homing bench: " + report.scenario();
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; ")
                .append("style-src 'unsafe-inline'; img-src data:\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>").append(escape(title)).append("</title><style>").append(CSS)
                .append("</style></head>\n<body>\n<h1>").append(escape(title)).append("</h1>\n");
        header();
        for (WorkloadResults w : WorkloadResults.of(report)) {
            workload(w);
        }
        html.append("<p class=\"note\">Percentiles are nearest-rank over the served requests. The hit rate is the "
                + "prompt tokens the pods reported cached over all prompt tokens. Its bound is what one cache of the "
                + "fleet's whole KV capacity reaches on the same requests under Belady's farthest-next-use "
                + "replacement, which no placement can beat; LRU over the same cache and an infinite shared cache "
                + "are shown beside it. "
                + "A * marks the best value of a column.</p>\n</body></html>\n");
        return html.toString();
    }

    private void header() {
        html.append("<table class=\"meta\"><caption>Run</caption><tbody>");
        row("mode", report.mode());
        row("seed", Long.toString(report.seed()));
        row("runs", report.runs().size() + " (" + policyIndex.size() + " policies)");
        new TreeMap<>(report.parameters()).forEach((k, v) -> row(k, String.valueOf(v)));
        html.append("</tbody></table>\n<h3>Reproduce</h3><pre><code>").append(escape(report.command()))
                .append("</code></pre>\n");
        if (report.runs().isEmpty()) {
            html.append("<p>No runs.</p>\n");
        }
    }

    private void row(String key, String value) {
        html.append("<tr><th scope=\"row\">").append(escape(key)).append("</th><td>").append(escape(value))
                .append("</td></tr>");
    }

    private void workload(WorkloadResults w) {
        html.append("<section class=\"workload\">\n<h2>Workload ").append(escape(w.workload())).append("</h2>\n");
        html.append("<p class=\"note\">").append(escape(capitalised(w.boundsLine())))
                .append(". Hit rate / bound is against ").append(escape(w.boundName())).append(". Load is ").append(escape(w.loadLabel())).append(".</p>\n");
        summaryTable(w);
        diagnosticsTable(w);
        html.append("<h3>Time to first token against load</h3>\n<div class=\"charts\">");
        html.append(byLoad(w, "TTFT p50", "TTFT p50 (s)", s -> s.summary().ttftP50()));
        html.append(byLoad(w, "TTFT p90", "TTFT p90 (s)", s -> s.summary().ttftP90()));
        html.append(byLoad(w, "TTFT p99", "TTFT p99 (s)", s -> s.summary().ttftP99()));
        html.append("</div>\n<h3>Output throughput and prefix-cache hit rate</h3>\n<div class=\"charts\">");
        html.append(byLoad(w, "Output throughput", "output tokens/s", s -> s.summary().outputTokensPerSecond()));
        html.append(hitRate(w));
        html.append("</div>\n");
        if (w.stageIndexes().size() > 1) {
            for (Metric m : TableReport.STAGE_METRICS) {
                stageTable(w, m);
            }
        }
        podLoad(w);
        html.append("</section>\n");
    }

    private void summaryTable(WorkloadResults w) {
        html.append("<table class=\"summary\"><caption>Summary of ").append(escape(w.workload()))
                .append(" (* best in column)</caption><thead><tr><th scope=\"col\">policy</th>");
        TableReport.COLUMNS.forEach(m -> html.append("<th scope=\"col\" class=\"num\">").append(escape(m.label()))
                .append("</th>"));
        html.append("</tr></thead><tbody>");
        List<RunSummary> runs = w.runs();
        boolean[][] best = new boolean[TableReport.COLUMNS.size()][];
        for (int c = 0; c < best.length; c++) {
            Metric m = TableReport.COLUMNS.get(c);
            best[c] = m.best(runs.stream().mapToDouble(r -> m.value(r.total(), w.bound())).toArray());
        }
        for (int r = 0; r < runs.size(); r++) {
            html.append("<tr><th scope=\"row\">").append(escape(runs.get(r).policy())).append("</th>");
            for (int c = 0; c < best.length; c++) {
                Metric m = TableReport.COLUMNS.get(c);
                cell(m.format(m.value(runs.get(r).total(), w.bound())), best[c][r]);
            }
            html.append("</tr>");
        }
        html.append("</tbody></table>\n");
    }

    private void diagnosticsTable(WorkloadResults w) {
        html.append("<table class=\"diagnostics\"><caption>Per-pod diagnostics of ").append(escape(w.workload()))
                .append("</caption><thead><tr><th scope=\"col\">policy</th>");
        DiagnosticColumns.COLUMNS.forEach(c -> html.append("<th scope=\"col\" class=\"num\">")
                .append(escape(c.label())).append("</th>"));
        html.append("</tr></thead><tbody>");
        for (RunSummary r : w.runs()) {
            html.append("<tr><th scope=\"row\">").append(escape(r.policy())).append("</th>");
            DiagnosticColumns.COLUMNS.forEach(c -> cell(c.cell(r.diagnostics()), false));
            html.append("</tr>");
        }
        html.append("</tbody></table>\n<p class=\"note\">").append(escape(DiagnosticColumns.NOTE)).append("</p>\n");
    }

    private static String capitalised(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private void stageTable(WorkloadResults w, Metric m) {
        html.append("<table class=\"stages\"><caption>").append(escape(m.label()))
                .append(" by stage (* best in row)</caption><thead><tr><th scope=\"col\">stage</th>")
                .append("<th scope=\"col\" class=\"num\">").append(w.openLoop() ? "offered QPS" : "QPS (closed loop)")
                .append("</th>");
        w.runs().forEach(r -> html.append("<th scope=\"col\" class=\"num\">").append(escape(r.policy()))
                .append("</th>"));
        html.append("</tr></thead><tbody>");
        for (int stage : w.stageIndexes()) {
            WorkloadResults.StageRow s = w.stageRow(stage, m);
            html.append("<tr><th scope=\"row\">").append(stage).append("</th><td class=\"num\">")
                    .append(Double.isNaN(s.offeredQps()) ? "-" : String.format(Locale.ROOT, "%.2f", s.offeredQps()))
                    .append("</td>");
            for (int r = 0; r < s.values().length; r++) {
                cell(m.format(s.values()[r]), s.best()[r]);
            }
            html.append("</tr>");
        }
        html.append("</tbody></table>\n");
    }

    private void cell(String value, boolean best) {
        if (best) {
            html.append("<td class=\"num best\" title=\"best\">").append(escape(value)).append(" *</td>");
        } else {
            html.append("<td class=\"num\">").append(escape(value)).append("</td>");
        }
    }

    /** One line per policy of a per-stage number against the stage's load. */
    private String byLoad(WorkloadResults w, String what, String unit, ToDoubleFunction<StageSummary> value) {
        List<LineChart.Series> series = new ArrayList<>();
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        StringBuilder desc = new StringBuilder();
        for (RunSummary run : w.runs()) {
            List<LineChart.Point> points = new ArrayList<>();
            for (StageSummary s : run.stages()) {
                double x = w.load(s);
                double y = value.applyAsDouble(s);
                if (Double.isFinite(x) && Double.isFinite(y)) {
                    points.add(new LineChart.Point(x, y));
                    xs.add(x);
                    ys.add(y);
                }
            }
            // a ladder need not climb (llm-d's starts with a 15 QPS warm-up before 3 QPS): a curve against load
            // is drawn left to right, stages at the same load in the order they ran
            points.sort(Comparator.comparingDouble(LineChart.Point::x));
            desc.append(run.policy()).append(':');
            points.forEach(p -> desc.append(' ').append(Scale.label(p.x())).append(" \u2192 ")
                    .append(Scale.label(p.y())).append(';'));
            desc.append(' ');
            int i = policyIndex.get(run.policy());
            series.add(new LineChart.Series(run.policy(), Palette.colour(i), Palette.dash(i), points));
        }
        String title = what + " against " + w.loadLabel() + ", " + w.workload();
        return new LineChart(nextId(), "by-load", title, unit + " by " + w.loadLabel() + ". " + desc.toString().trim(),
                w.loadLabel(), unit, Scale.fromZero(max(xs)), Scale.auto(unbox(ys)), series, true, WIDE, TALL).svg();
    }

    private String hitRate(WorkloadResults w) {
        List<BarChart.Bar> bars = new ArrayList<>();
        StringBuilder desc = new StringBuilder();
        for (RunSummary run : w.runs()) {
            double hit = run.total().hitRate();
            bars.add(new BarChart.Bar(run.policy(), Palette.colour(policyIndex.get(run.policy())), hit));
            desc.append(run.policy()).append(' ').append(Metric.HIT_RATE.format(hit)).append("; ");
        }
        String bound = "bound " + Metric.HIT_RATE.format(w.bound()) + (w.cacheBounds() == null ? " (infinite cache)"
                : " (Belady; LRU " + Metric.HIT_RATE.format(w.cacheBounds().lru()) + ", infinite cache "
                + Metric.HIT_RATE.format(w.hitRateBound()) + ")");
        desc.append(Double.isFinite(w.bound()) ? bound : "no bound known");
        return new BarChart(nextId(), "hit-rate", "Prefix-cache hit rate against the bound, " + w.workload(),
                "Hit rate per policy: " + desc, "prompt tokens cached", bars, w.bound(), bound, WIDE, TALL)
                .svg();
    }

    /** Small multiples: one chart per policy, pods as lines, all on the same axes. */
    private void podLoad(WorkloadResults w) {
        html.append("<h3>Per-pod load over time</h3>\n");
        TreeSet<String> pods = new TreeSet<>();
        double maxT = 0;
        double maxLoad = 0;
        for (RunSummary run : w.runs()) {
            long t0 = start(run.run().load());
            for (LoadSample s : run.run().load()) {
                pods.add(s.pod());
                maxT = Math.max(maxT, (s.atNanos() - t0) / 1e9);
                maxLoad = Math.max(maxLoad, s.running() + s.waiting());
            }
        }
        if (pods.isEmpty()) {
            html.append("<p class=\"note\">No load samples were recorded for this workload.</p>\n");
            return;
        }
        List<String> podList = List.copyOf(pods);
        Scale x = Scale.fromZero(maxT);
        Scale y = Scale.fromZero(maxLoad);
        html.append("<div class=\"charts\">");
        for (RunSummary run : w.runs()) {
            long t0 = start(run.run().load());
            Map<String, List<LoadSample>> byPod = new LinkedHashMap<>();
            podList.forEach(p -> byPod.put(p, new ArrayList<>()));
            run.run().load().forEach(s -> byPod.get(s.pod()).add(s));
            List<LineChart.Series> series = new ArrayList<>();
            byPod.forEach((pod, samples) -> {
                int i = podList.indexOf(pod);
                List<LineChart.Point> points = thin(samples).stream()
                        .map(s -> new LineChart.Point((s.atNanos() - t0) / 1e9, s.running() + s.waiting())).toList();
                series.add(new LineChart.Series(pod, Palette.colour(i), Palette.dash(i), points));
            });
            String title = "Per-pod load over time, " + run.policy() + ", " + w.workload();
            String desc = "Requests running or waiting on each of " + podList.size() + " pods over "
                    + Scale.label(maxT) + " s under " + run.policy() + "; " + run.run().load().size() + " samples.";
            html.append(new LineChart(nextId(), "pod-load", title, desc, "time (s)", "running + waiting", x, y, series,
                    false, SMALL_WIDE, SMALL_TALL).svg());
        }
        html.append("</div>\n");
    }

    private static long start(List<LoadSample> samples) {
        return samples.stream().mapToLong(LoadSample::atNanos).min().orElse(0);
    }

    /** At most {@link #MAX_POINTS} samples, keeping the busiest of each run of neighbours so peaks survive. */
    static List<LoadSample> thin(List<LoadSample> samples) {
        if (samples.size() <= MAX_POINTS) {
            return samples;
        }
        int bucket = (samples.size() + MAX_POINTS - 1) / MAX_POINTS;
        LinkedHashSet<LoadSample> kept = new LinkedHashSet<>();
        for (int from = 0; from < samples.size(); from += bucket) {
            LoadSample peak = samples.get(from);
            for (int i = from; i < Math.min(samples.size(), from + bucket); i++) {
                LoadSample s = samples.get(i);
                if (s.running() + s.waiting() > peak.running() + peak.waiting()) {
                    peak = s;
                }
            }
            kept.add(peak);
        }
        return List.copyOf(kept);
    }

    private String nextId() {
        return "c" + (++charts);
    }

    private static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    private static double[] unbox(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
