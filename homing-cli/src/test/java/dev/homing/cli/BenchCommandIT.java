package dev.homing.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.homing.bench.virtual.Scenarios;
import dev.homing.cli.cluster.LocalCluster;
import dev.homing.sim.engine.Preset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code homing bench} end to end: a virtual scenario, a workload swapped in, and a live run against real sockets. */
class BenchCommandIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void quickScenarioPrintsEveryPolicyWritesBothFilesAndReproducesItself() throws Exception {
        Path out = dir.resolve("first");
        CliRun r = CliRun.of("bench", "--virtual", "--scenario", "quick", "--out",
                out.toString());
        System.out.println(r.out());
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> policies = Scenarios.get("quick", Map.of()).policies();
        List<String> rows = r.out().lines().toList();
        for (String policy : policies) {
            assertThat(rows).as("a table row for %s", policy).anyMatch(l -> l.startsWith(policy + " "));
        }
        Path json = out.resolve("report.json");
        Path html = out.resolve("report.html");
        assertThat(r.out()).contains("wrote " + json.toAbsolutePath()).contains("wrote " + html.toAbsolutePath());
        assertThat(html).content().contains("<svg").contains("Workload shared-prefix");

        JsonNode report = JSON.readTree(json.toFile());
        String command = report.get("command").asText();
        assertThat(r.out()).contains("reproduce: " + command);
        assertThat(command).startsWith("homing bench --virtual --scenario quick").endsWith("--seed 1");
        assertThat(report.get("runs")).hasSize(policies.size());

        // the printed command, run again, makes the same report: virtual time is deterministic
        List<String> again = new ArrayList<>(Arrays.asList(command.split(" ")).subList(1, command.split(" ").length));
        Path second = dir.resolve("second");
        again.addAll(List.of("--out", second.toString(), "--no-html"));
        CliRun r2 = CliRun.of(again.toArray(String[]::new));
        assertThat(r2.exit()).as(r2.err()).isZero();
        // everything but the wall-clock time the runs took
        JsonNode replay = JSON.readTree(second.resolve("report.json").toFile());
        for (JsonNode doc : List.of(report, replay)) {
            doc.get("runs").forEach(run -> ((ObjectNode) run).remove("wallNanos"));
        }
        assertThat(replay).isEqualTo(report);
        assertThat(second.resolve("report.html")).doesNotExist();
    }

    @Test
    void severalSeedsWriteEachSeedsReportAndTheTableAcrossThem() throws Exception {
        Path out = dir.resolve("seeds");
        CliRun r = CliRun.of("bench", "--scenario", "quick", "--seeds", "2-3", "--policies", "round-robin,homing",
                "--no-html", "--out", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode two = JSON.readTree(out.resolve("seed-2/report.json").toFile());
        JsonNode three = JSON.readTree(out.resolve("seed-3/report.json").toFile());
        assertThat(two.get("seed").asLong()).isEqualTo(2);
        assertThat(three.get("command").asText()).endsWith("--seed 3");
        JsonNode seeds = JSON.readTree(out.resolve("seeds.json").toFile());
        assertThat(seeds.get("seeds").toString()).isEqualTo("[2,3]");
        // each seed's number in the table is its own report's
        for (JsonNode run : three.get("runs")) {
            double p90 = run.get("summary").get("ttftP90").asDouble();
            assertThat(seeds.get("workloads").get("shared-prefix").get(run.get("policy").asText()).get("3")
                    .get("total").get("ttftP90").asDouble()).isEqualTo(p90);
        }
        assertThat(r.out()).contains("seeds 2, 3").contains("seed 2").contains("seed 3").contains("mean");
        assertThat(out.resolve("seeds.txt")).content().contains("TTFT p90 (s)");
    }

    @Test
    void aUsersConfigFileRunsUnderItsLabelAndItsCommandReproducesIt() throws Exception {
        Path config = Files.writeString(dir.resolve("mine.yaml"), """
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                plugins:
                - type: queue-scorer
                """);
        Path out = dir.resolve("mine");
        CliRun r = CliRun.of("bench", "--scenario", "quick", "--param", "policies=round-robin,mine=" + config,
                "--out", out.toString(), "--no-html");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out().lines()).anyMatch(l -> l.startsWith("mine "));
        String command = JSON.readTree(out.resolve("report.json").toFile()).get("command").asText();
        assertThat(command).contains("mine=" + config);

        List<String> again = new ArrayList<>(Arrays.asList(command.split(" ")).subList(1, command.split(" ").length));
        again.addAll(List.of("--out", dir.resolve("again").toString(), "--no-html"));
        CliRun r2 = CliRun.of(again.toArray(String[]::new));
        assertThat(r2.exit()).as(r2.err()).isZero();
        assertThat(r2.out().lines()).anyMatch(l -> l.startsWith("mine "));
    }

    @Test
    void anotherWorkloadOnTheScenarioFleetTakesItsOwnParameters() throws Exception {
        CliRun r = CliRun.of("bench", "--scenario", "quick", "--workload", "cold-burst",
                "--param", "num_requests=24", "--param", "pods=2", "--policies", "homing,round-robin", "--seed", "3",
                "--no-html", "--out", dir.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode report = JSON.readTree(dir.resolve("report.json").toFile());
        assertThat(report.get("command").asText()).isEqualTo("homing bench --virtual --scenario quick --workload "
                + "cold-burst --param num_requests=24 --param pods=2 --policies homing,round-robin --seed 3");
        assertThat(report.get("parameters").get("pods").asInt()).isEqualTo(2);
        assertThat(report.get("runs")).hasSize(2);
        for (JsonNode run : report.get("runs")) {
            assertThat(run.get("workload").asText()).isEqualTo("cold-burst");
            assertThat(run.get("records")).hasSize(24);
            assertThat(run.get("summary").get("perPod").size()).isLessThanOrEqualTo(2);
        }
        assertThat(dir.resolve("report.html")).doesNotExist();
        assertThat(r.out()).contains("homing ").contains("round-robin ");
    }

    @Test
    void liveRunAgainstARealRouterIsLabelledLive() throws Exception {
        LocalCluster.Options options = new LocalCluster.Options(2, "Qwen/Qwen2.5-0.5B-Instruct",
                Preset.byName("cpu-qwen2.5-0.5b"), "127.0.0.1", 0, 0, 0, 5, null, false, null);
        try (LocalCluster cluster = LocalCluster.start(options)) {
            CliRun r = CliRun.of("bench", "--live", cluster.baseUrl(), "--workload",
                    "cold-burst", "--param", "num_requests=12", "--param", "output_len=4", "--out", dir.toString());
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out()).contains("(live, seed 1)").containsPattern("(?m)^live +12 ");
            JsonNode report = JSON.readTree(dir.resolve("report.json").toFile());
            assertThat(report.get("mode").asText()).isEqualTo("live");
            assertThat(report.get("command").asText()).isEqualTo("homing bench --live " + cluster.baseUrl()
                    + " --workload cold-burst --param num_requests=12 --param output_len=4 --seed 1");
            JsonNode run = report.get("runs").get(0);
            assertThat(run.get("policy").asText()).isEqualTo("live");
            assertThat(run.get("summary").get("served").asInt()).isEqualTo(12);
            assertThat(report.get("hitRateBounds").get("cold-burst").isNumber()).isTrue();
            assertThat(Files.readString(dir.resolve("report.html"))).contains("No load samples were recorded");
        }
    }

    @Test
    void liveRunWhereNothingIsServedFails() {
        // port 9 (discard) on loopback: nothing listens, every request is refused
        CliRun r = CliRun.of("bench", "--live", "http://127.0.0.1:9", "--workload",
                "cold-burst", "--param", "num_requests=3", "--no-html", "--out", dir.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("no request was served under live");
        assertThat(dir.resolve("report.json")).exists();
    }
}
