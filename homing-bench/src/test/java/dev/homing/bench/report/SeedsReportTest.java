package dev.homing.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.bench.result.BenchReport;
import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.result.Summary;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class SeedsReportTest {

    /** A seed's report where the policies' speeds are ranked as {@code ranks} says (0 fastest). */
    private static BenchReport seed(long seed, List<String> policies, List<Integer> ranks) {
        BenchReport base = SampleReports.report("w", policies, false);
        List<PolicyRun> runs = new java.util.ArrayList<>();
        for (int p = 0; p < policies.size(); p++) {
            runs.add(SampleReports.run(policies.get(p), "w", ranks.get(p), policies.size(), SampleReports.LADDER));
        }
        return new BenchReport(base.scenario(), base.mode(), seed, runs, base.hitRateBounds(), base.cacheBounds(),
                base.parameters(), base.command());
    }

    private static double p90(String policy, int rank, int n) {
        return Summary.of(SampleReports.run(policy, "w", rank, n, SampleReports.LADDER).records()).ttftP90();
    }

    @Test
    void eachSeedsValueSitsBesideTheirMean() {
        SeedsReport r = new SeedsReport("sample")
                .add(seed(1, List.of("a", "b"), List.of(0, 1)))
                .add(seed(2, List.of("a", "b"), List.of(1, 0)))
                .add(seed(3, List.of("a", "b"), List.of(0, 1)));
        double fast = p90("a", 0, 2);
        double slow = p90("a", 1, 2);
        assertThat(fast).isLessThan(slow);
        double[][] v = r.values("w", Metric.TTFT_P90, null);
        assertThat(v[0]).containsExactly(fast, slow, fast, (2 * fast + slow) / 3);
        assertThat(v[1]).containsExactly(slow, fast, slow, (fast + 2 * slow) / 3);
        String text = r.render();
        assertThat(text).contains("seeds 1, 2, 3").contains("seed 1").contains("mean");
        // a's mean is the better one, and marked
        String row = text.lines().filter(l -> l.startsWith("a ")).findFirst().orElseThrow();
        assertThat(row).contains(String.format(Locale.ROOT, "%.3f*", (2 * fast + slow) / 3));
        // the ladder's stages get their own tables, hit rate standing in for the whole run's bound ratio
        assertThat(text).contains("TTFT p90 (s), stage 0 (2.00 QPS)").contains("TTFT p90 (s), stage 2 (8.00 QPS)")
                .contains("hit rate, stage 1 (4.00 QPS)").doesNotContain("hit rate / bound, stage");
    }

    @Test
    void aPolicyMissingFromASeedIsADashAndItsMeanTakesTheSeedsItHas() {
        SeedsReport r = new SeedsReport("sample")
                .add(seed(1, List.of("a", "b"), List.of(0, 1)))
                .add(seed(2, List.of("a"), List.of(1)));
        double[][] v = r.values("w", Metric.TTFT_P90, null);
        assertThat(v[1][1]).isNaN();
        assertThat(v[1][2]).isEqualTo(v[1][0]);
        assertThat(r.render().lines().filter(l -> l.startsWith("b ")).findFirst().orElseThrow()).contains(" - ");
    }

    @Test
    void theJsonCarriesEverySeedAndStage() throws Exception {
        SeedsReport r = new SeedsReport("sample")
                .add(seed(4, List.of("a", "b"), List.of(0, 1)))
                .add(seed(9, List.of("a", "b"), List.of(1, 0)));
        JsonNode doc = new ObjectMapper().readTree(r.json());
        assertThat(doc.get("seeds").toString()).isEqualTo("[4,9]");
        JsonNode a9 = doc.get("workloads").get("w").get("a").get("9");
        assertThat(a9.get("total").get("ttftP90").asDouble()).isEqualTo(p90("a", 1, 2));
        assertThat(a9.get("stages").get("2").get("offeredQps").asDouble()).isEqualTo(8.0);
        assertThat(a9.get("total").get("hitRateOfBound").asDouble()).isGreaterThan(0);
    }

    @Test
    void aSeedIsAddedOnce() {
        SeedsReport r = new SeedsReport("sample").add(seed(1, List.of("a"), List.of(0)));
        assertThatThrownBy(() -> r.add(seed(1, List.of("a"), List.of(0))))
                .hasMessageContaining("seed 1 is already");
    }
}
