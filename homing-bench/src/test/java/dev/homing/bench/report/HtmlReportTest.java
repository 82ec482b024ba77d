package dev.homing.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.bench.result.BenchReport;
import dev.homing.bench.result.LoadSample;
import dev.homing.bench.result.PolicyRun;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HtmlReportTest {

    private static final List<String> POLICIES = List.of("homing", "round-robin", "random");

    @Test
    void everyChartIsNamedAndHasALinePerPolicy() {
        String html = HtmlReport.render(SampleReports.report("shared-prefix", POLICIES, false));
        List<String> svgs = all(html, "<svg\\b.*?</svg>");
        assertThat(svgs).hasSize(5 + POLICIES.size());
        for (String svg : svgs) {
            Matcher labelled = Pattern.compile("^<svg[^>]*role=\"img\" aria-labelledby=\"(c\\d+)-t \\1-d\"[^>]*>"
                    + "<title id=\"\\1-t\">[^<]+</title><desc id=\"\\1-d\">[^<]+</desc>").matcher(svg);
            assertThat(labelled.find()).as(svg.substring(0, 200)).isTrue();
        }
        List<String> byLoad = svgs.stream().filter(s -> s.contains("class=\"chart by-load\"")).toList();
        assertThat(byLoad).hasSize(4);
        for (String chart : byLoad) {
            assertThat(all(chart, "<polyline[^>]*data-series=\"([^\"]*)\"", 1)).containsExactlyElementsOf(POLICIES);
            // three stages, three dots per policy
            assertThat(all(chart, "<circle ")).hasSize(3 * POLICIES.size());
            assertThat(chart).contains(">offered QPS</text>");
        }
        assertThat(html).contains("<title id=\"c1-t\">TTFT p50 against offered QPS, shared-prefix</title>");
    }

    @Test
    void curvesAgainstLoadRunLeftToRightWhateverOrderTheLadderRan() {
        // a warm-up at 8 QPS, then 2 and 4: drawn at 2, 4, 8
        PolicyRun run = SampleReports.run("homing", "w", 0, 1, List.of(8.0, 2.0, 4.0));
        String html = HtmlReport.render(new BenchReport("s", "virtual", 1, List.of(run), Map.of(), Map.of(), "c"));
        for (String points : all(html, "<svg class=\"chart by-load\".*?<polyline[^>]* points=\"([^\"]*)\"", 1)) {
            double[] xs = Arrays.stream(points.split(" ")).mapToDouble(p -> Double.parseDouble(p.split(",")[0]))
                    .toArray();
            assertThat(xs).hasSize(3);
            assertThat(xs[0]).isLessThan(xs[1]);
            assertThat(xs[1]).isLessThan(xs[2]);
        }
    }

    @Test
    void aWideLatencyRangeGetsALogAxis() {
        // the last policy collapses at high load: p90 spans 0.07 s to 6.3 s
        String html = HtmlReport.render(SampleReports.report("w", POLICIES, false));
        List<String> svgs = all(html, "<svg\\b.*?</svg>");
        assertThat(svgs.get(1)).contains("TTFT p90 (s) (log scale)");
        assertThat(svgs.get(3)).as("throughput stays linear").contains(">output tokens/s</text>")
                .doesNotContain("log scale");
    }

    @Test
    void hitRatesAreBarsUnderTheBound() {
        String html = HtmlReport.render(SampleReports.report("w", POLICIES, true));
        List<String> hit = all(html, "<svg class=\"chart hit-rate\".*?</svg>");
        assertThat(hit).hasSize(2);
        assertThat(all(hit.get(0), "<rect class=\"bar\" data-series=\"([^\"]*)\"", 1))
                .containsExactlyElementsOf(POLICIES);
        assertThat(hit.get(0)).contains("<line class=\"bound\"")
                .contains("bound 75.0% (Belady; LRU 60.0%, infinite cache 80.0%)").contains(">70.0%<");
        assertThat(hit.get(1)).as("no bound known: no line").doesNotContain("<line class=\"bound\"")
                .contains("no bound known");
        // the bar's height is its share of the plot: 70% of the way up from the baseline
        Matcher bar = Pattern.compile("<rect class=\"bar\"[^>]*y=\"([\\d.]+)\"[^>]*height=\"([\\d.]+)\"")
                .matcher(hit.get(0));
        assertThat(bar.find()).isTrue();
        double top = Double.parseDouble(bar.group(1));
        double height = Double.parseDouble(bar.group(2));
        double plotHeight = (top + height) - 30;
        assertThat(height / plotHeight).isBetween(0.69, 0.71);
    }

    @Test
    void boundsAndPerPodDiagnosticsAreTabled() {
        String html = HtmlReport.render(SampleReports.report("w", POLICIES, false));
        assertThat(html).contains("Hit-rate bound 75.0% (Belady, one cache of the fleet&#39;s 300 KV blocks; LRU of"
                + " the same: 60.0%); infinite cache 80.0%. Hit rate / bound is against Belady.");
        List<String> tables = all(html, "<table class=\"diagnostics\".*?</table>");
        assertThat(tables).hasSize(1);
        assertThat(all(tables.getFirst(), "<th scope=\"row\">([^<]*)<", 1)).containsExactlyElementsOf(POLICIES);
        // the numbers are PodDiagnosticsTest's; here that every policy has its row of them
        assertThat(tables.getFirst()).contains("uncached prefill/pod max (k tok)").contains("behind long prefill");
    }

    @Test
    void podLoadIsOneSmallChartPerPolicyOnSharedAxes() {
        String html = HtmlReport.render(SampleReports.report("w", POLICIES, false));
        List<String> pods = all(html, "<svg class=\"chart pod-load\".*?</svg>");
        assertThat(pods).hasSize(POLICIES.size());
        String yTicks = null;
        for (int i = 0; i < pods.size(); i++) {
            assertThat(pods.get(i)).contains("Per-pod load over time, " + POLICIES.get(i));
            assertThat(all(pods.get(i), "<polyline[^>]*data-series=\"([^\"]*)\"", 1))
                    .containsExactly("pod-0", "pod-1", "pod-2");
            String ticks = String.join(",",
                    all(pods.get(i), "<text x=\"[\\d.]+\" y=\"[\\d.]+\" text-anchor=\"end\">([^<]*)<", 1));
            yTicks = yTicks == null ? ticks : yTicks;
            assertThat(ticks).isEqualTo(yTicks);
        }
    }

    @Test
    void noLoadSamplesSaysSoInsteadOfEmptyCharts() {
        BenchReport report = SampleReports.report("w", POLICIES, false);
        List<PolicyRun> bare = report.runs().stream()
                .map(r -> new PolicyRun(r.policy(), r.workload(), r.records(), List.of(), r.stageQps(), r.wallNanos()))
                .toList();
        String html = HtmlReport.render(new BenchReport("s", "live", 1, bare, Map.of(), Map.of(), "c"));
        assertThat(html).contains("No load samples were recorded").doesNotContain("chart pod-load");
    }

    @Test
    void everyEmbeddedStringIsEscaped() {
        String evil = "<script>alert(\"x\")</script>&'";
        BenchReport sample = SampleReports.report(evil, List.of(evil, "ok"), false);
        BenchReport report = new BenchReport(evil, evil, 1, sample.runs(), sample.hitRateBounds(), Map.of(evil, evil),
                "homing bench --scenario '" + evil + "'");
        String html = HtmlReport.render(report);
        assertThat(html).doesNotContain("<script").doesNotContain("alert(\"x\")")
                .contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;");
        assertThat(Markup.escape("a\u0000b\u001bc\n")).isEqualTo("a\uFFFDb\uFFFDc\n");
    }

    @Test
    void standsAloneAndForbidsFetching() {
        String html = HtmlReport.render(SampleReports.report("w", POLICIES, true));
        assertThat(html).startsWith("<!DOCTYPE html>")
                .contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';")
                .doesNotContainPattern("(?i)https?://")
                .doesNotContainPattern("(?i)\\b(src|href)\\s*=")
                .doesNotContainPattern("(?i)url\\s*\\(")
                .doesNotContain("<script");
    }

    @Test
    void thinningKeepsThePeaks() {
        List<LoadSample> samples = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            samples.add(new LoadSample(i, "p", i == 4321 ? 99 : i % 3, 0, 0));
        }
        List<LoadSample> thin = HtmlReport.thin(samples);
        assertThat(thin.size()).isLessThanOrEqualTo(400);
        assertThat(thin).anyMatch(s -> s.running() == 99);
        assertThat(thin).extracting(LoadSample::atNanos).isSorted();
    }

    private static List<String> all(String text, String regex) {
        return all(text, regex, 0);
    }

    private static List<String> all(String text, String regex, int group) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile(regex, Pattern.DOTALL).matcher(text);
        while (m.find()) {
            out.add(m.group(group));
        }
        return out;
    }
}
