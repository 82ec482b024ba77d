package dev.homing.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.bench.result.BenchReport;
import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.result.RequestRecord;
import dev.homing.bench.result.Summary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonReportTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void carriesWhatRanAndEveryRunWithItsSummariesAndRawData() throws Exception {
        BenchReport report = SampleReports.report("shared-prefix", List.of("homing", "random"), true);
        JsonNode json = MAPPER.readTree(JsonReport.render(report));
        assertThat(names(json)).containsExactly("scenario", "mode", "seed", "command", "parameters", "hitRateBounds",
                "cacheBounds", "runs");
        assertThat(json.get("command").asText()).isEqualTo(report.command());
        assertThat(json.get("seed").asLong()).isEqualTo(7);
        assertThat(json.get("hitRateBounds").get("shared-prefix").asDouble()).isEqualTo(0.8);
        assertThat(json.get("runs")).hasSize(report.runs().size());

        for (int i = 0; i < report.runs().size(); i++) {
            PolicyRun run = report.runs().get(i);
            JsonNode r = json.get("runs").get(i);
            assertThat(names(r)).containsExactly("policy", "workload", "wallNanos", "stageQps", "hitRateBound",
                    "beladyBound", "lruBound", "boundName", "hitRateOfBound", "summary", "diagnostics",
                    "pluginReports", "stages", "records", "load");
            assertThat(r.get("policy").asText()).isEqualTo(run.policy());
            assertThat(r.get("workload").asText()).isEqualTo(run.workload());
            Summary total = Summary.of(run.records());
            assertThat(r.get("summary").get("ttftP90").asDouble()).isEqualTo(total.ttftP90());
            assertThat(r.get("summary").get("served").asInt()).isEqualTo(total.served());
            assertThat(r.get("records")).hasSize(run.records().size());
            assertThat(r.get("load")).hasSize(run.load().size());
            assertThat(r.get("stages")).hasSize(run.stageQps().size());
        }
        JsonNode first = json.get("runs").get(0);
        assertThat(first.get("hitRateOfBound").asDouble()).isCloseTo(0.7 / 0.75, within(1e-12));
        assertThat(first.get("boundName").asText()).isEqualTo("Belady");
        assertThat(first.get("hitRateBound").asDouble()).isEqualTo(0.8);
        assertThat(first.get("beladyBound").asDouble()).isEqualTo(0.75);
        assertThat(first.get("lruBound").asDouble()).isEqualTo(0.6);
        assertThat(json.get("cacheBounds").get("shared-prefix").get("capacityBlocks").asLong()).isEqualTo(300);
        assertThat(first.get("diagnostics").get("pods").asInt()).isEqualTo(SampleReports.PODS);
        JsonNode stage2 = first.get("stages").get(2);
        assertThat(stage2.get("offeredQps").asDouble()).isEqualTo(8.0);
        List<RequestRecord> records2 = report.runs().getFirst().records().stream().filter(x -> x.stage() == 2).toList();
        assertThat(stage2.get("summary").get("ttftP99").asDouble()).isEqualTo(Summary.of(records2).ttftP99());
        JsonNode record = first.get("records").get(0);
        assertThat(names(record)).startsWith("id", "stage", "arrivalNanos", "pod", "status", "ttftNanos");
        assertThat(first.get("summary").get("errors").size()).isZero();
        assertThat(json.get("runs").get(1).get("summary").get("errors").get("503").asInt()).isEqualTo(3);
    }

    @Test
    void eachRecordSampleAndStageIsOneLine() throws Exception {
        BenchReport report = SampleReports.report("w", List.of("homing"), false);
        String text = JsonReport.render(report);
        PolicyRun run = report.runs().getFirst();
        List<String> lines = text.lines().toList();
        for (RequestRecord r : run.records()) {
            String line = lines.stream().filter(l -> l.contains("\"id\" : \"" + r.id() + "\"")).findFirst()
                    .orElseThrow();
            JsonNode parsed = MAPPER.readTree(line.trim().replaceAll(",$", ""));
            assertThat(parsed.get("ttftNanos").asLong()).isEqualTo(r.ttftNanos());
        }
        assertThat(lines.stream().filter(l -> l.trim().startsWith("{ \"atNanos\"")).count())
                .isEqualTo(run.load().size());
        assertThat(lines.stream().filter(l -> l.trim().startsWith("{ \"stage\"")).count())
                .isEqualTo(run.stageQps().size());
        assertThat(lines).as("the outline stays indented").contains("  \"runs\" : [", "      \"summary\" : {");
    }

    @Test
    void numbersThatDoNotExistAreNullAndAnUnknownBoundToo() throws Exception {
        RequestRecord failed = new RequestRecord("x", 0, 0, null, 0, -1, -1, 10, -1, 0);
        BenchReport report = new BenchReport("s", "live", 1,
                List.of(new PolicyRun("live", "w", List.of(failed), List.of(), List.of(), 5)), Map.of(), Map.of(), "c");
        String text = JsonReport.render(report);
        assertThat(text).doesNotContain("NaN").doesNotContain("Infinity");
        JsonNode run = MAPPER.readTree(text).get("runs").get(0);
        assertThat(run.get("summary").get("ttftP50").isNull()).isTrue();
        assertThat(run.get("hitRateBound").isNull()).isTrue();
        assertThat(run.get("hitRateOfBound").isNull()).isTrue();
        assertThat(run.get("beladyBound").isNull()).isTrue();
        assertThat(run.get("boundName").asText()).isEqualTo("infinite cache");
        assertThat(run.get("diagnostics").get("queueP50").isNull()).as("a live run knows no queue time").isTrue();
    }

    @Test
    void mapsComeOutSortedWhateverOrderTheyWereMadeIn() throws Exception {
        Map<String, Object> params = new HashMap<>();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            keys.add("k" + (char) ('a' + i % 26) + i);
        }
        keys.forEach(k -> params.put(k, k.length()));
        BenchReport report = new BenchReport("s", "virtual", 1, List.of(), Map.of("z", 0.1, "a", 0.2, "m", 0.3),
                params, "c");
        JsonNode json = MAPPER.readTree(JsonReport.render(report));
        assertThat(names(json.get("parameters"))).isSorted().hasSize(40);
        assertThat(names(json.get("hitRateBounds"))).containsExactly("a", "m", "z");
        assertThat(JsonReport.render(report)).isEqualTo(JsonReport.render(report));
    }

    private static List<String> names(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
