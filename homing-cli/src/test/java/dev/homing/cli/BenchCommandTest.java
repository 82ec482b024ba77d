package dev.homing.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.bench.policy.Policies;
import dev.homing.bench.policy.PolicySpec;
import dev.homing.bench.virtual.Scenario;
import dev.homing.bench.virtual.Scenarios;
import dev.homing.bench.workload.WorkloadSpec;
import dev.homing.bench.workload.Workloads;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code homing bench}'s help and the mistakes it refuses before running anything. */
class BenchCommandTest {

    @TempDir
    Path dir;

    @Test
    void helpDocumentsEveryScenarioPolicyAndWorkloadWithItsParameters() {
        CliRun help = CliRun.of("bench", "--help");
        assertThat(help.exit()).isZero();
        // wrapping only ever breaks at spaces: with whitespace collapsed, every description reads whole
        String text = flat(help.out());
        assertThat(Scenarios.catalog()).isNotEmpty().allSatisfy(s -> assertThat(text)
                .contains(" " + s.name() + " " + flat(s.description())));
        assertThat(Policies.catalog()).isNotEmpty().allSatisfy(p -> assertThat(text)
                .contains(" " + p.name() + " " + flat(p.description())));
        assertThat(Workloads.catalog()).isNotEmpty().allSatisfy(w -> {
            assertThat(text).contains(" " + w.name() + " " + flat(w.description()));
            // each parameter under its own workload, in catalog order, with its default
            int at = text.indexOf(" " + w.name() + " " + flat(w.description()));
            for (WorkloadSpec.Parameter p : w.parameters()) {
                String entry = " " + p.name() + (p.defaultValue().isEmpty() ? "" : "=" + p.defaultValue()) + " "
                        + flat(p.description());
                int found = text.indexOf(entry, at);
                assertThat(found).as("%s of %s", entry, w.name()).isPositive();
                at = found;
            }
        });
        assertThat(help.out()).contains("--virtual", "--live=URL", "--scenario=NAME", "--workload=NAME",
                "--param=KEY=VALUE", "--policies=A,B", "--seed=N", "--out=DIR", "--no-html", "jmh", "footprint");
    }

    @Test
    void helpIsWrappedToTheUsageWidth() {
        for (String line : CliRun.of("bench", "--help").out().lines().toList()) {
            // a single word longer than the room (none today) would be the only excuse
            assertThat(line.length()).as(line).isLessThanOrEqualTo(80);
        }
    }

    @Test
    void catalogHelpFollowsTheCatalogsNotACopy() {
        String text = flat(BenchCommand.catalogHelp(100));
        List<String> scenarios = Scenarios.catalog().stream().map(Scenario::name).toList();
        List<String> policies = Policies.catalog().stream().map(PolicySpec::name).toList();
        List<String> workloads = Workloads.catalog().stream().map(WorkloadSpec::name).toList();
        for (List<String> names : List.of(scenarios, policies, workloads)) {
            int at = -1;
            for (String name : names) {
                int found = text.indexOf(" " + name + " ", at + 1);
                assertThat(found).as("%s after position %d", name, at).isGreaterThan(at);
                at = found;
            }
        }
    }

    @Test
    void unknownScenarioIsAConfigErrorNamingTheKnownOnes() {
        CliRun r = CliRun.of("bench", "--scenario", "nope", "--out", dir.toString());
        assertThat(r.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(r.err()).contains("unknown scenario 'nope'").contains("quick");
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void unknownWorkloadParameterIsAConfigError() throws Exception {
        Path out = dir.resolve("out");
        CliRun r = CliRun.of("bench", "--live", "http://127.0.0.1:9", "--workload", "cold-burst", "--param", "bogus=1",
                "--out", out.toString());
        assertThat(r.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(r.err()).contains("unknown parameter 'bogus'");
        assertThat(Files.exists(out)).isFalse();
    }

    @Test
    void virtualAndLiveTogetherIsAUsageError() {
        CliRun r = CliRun.of("bench", "--virtual", "--live", "http://127.0.0.1:9");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("mutually exclusive");
    }

    @Test
    void liveOptionsAreCheckedBeforeSendingAnything() {
        assertThat(CliRun.of("bench", "--live", "ftp://127.0.0.1:9").err()).contains("expected a URL such as");
        assertThat(CliRun.of("bench", "--live", "http://127.0.0.1:9", "--policies", "homing").err())
                .contains("--policies is for --virtual");
        assertThat(CliRun.of("bench", "--live", "http://127.0.0.1:9", "--param", "pods=3").err())
                .contains("--param pods changes a virtual fleet");
        assertThat(CliRun.of("bench", "--virtual", "--block-size", "32").err()).contains("--block-size is for --live");
    }

    @Test
    void seedsAreARangeOrAList() {
        assertThat(BenchCommand.seedList("1-4")).containsExactly(1L, 2L, 3L, 4L);
        assertThat(BenchCommand.seedList(" 7 ")).containsExactly(7L);
        assertThat(BenchCommand.seedList("5,2,9")).containsExactly(5L, 2L, 9L);
        assertThatThrownBy(() -> BenchCommand.seedList("4-1")).hasMessageContaining("A <= B");
        assertThatThrownBy(() -> BenchCommand.seedList("1,1")).hasMessageContaining("named twice");
        assertThatThrownBy(() -> BenchCommand.seedList("one")).hasMessageContaining("A-B or A,B");
        assertThatThrownBy(() -> BenchCommand.seedList("1-5000")).hasMessageContaining("at most 1,000");
    }

    @Test
    void shellQuotingLeavesPlainWordsAloneAndQuotesTheRest() {
        assertThat(BenchCommand.shellQuote("qps=6x10,14x10")).isEqualTo("qps=6x10,14x10");
        assertThat(BenchCommand.shellQuote("http://h:80/v1")).isEqualTo("http://h:80/v1");
        assertThat(BenchCommand.shellQuote("file=my trace.jsonl")).isEqualTo("'file=my trace.jsonl'");
        assertThat(BenchCommand.shellQuote("it's")).isEqualTo("'it'\\''s'");
        assertThat(BenchCommand.shellQuote("")).isEqualTo("''");
    }

    @Test
    void progressDrawsOneLineInPlaceOnlyWhenAllowed() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BenchCommand.VirtualProgress p = new BenchCommand.VirtualProgress(new PrintStream(bytes, true,
                StandardCharsets.UTF_8), true);
        p.accept("homing", 0.5);
        p.accept("random", 1.0);
        p.finish();
        String drawn = bytes.toString(StandardCharsets.UTF_8);
        assertThat(drawn).startsWith("\r").endsWith("\n").contains("1 of 2 runs done").contains("homing 50%");
        assertThat(drawn.indexOf('\n')).as("one line").isEqualTo(drawn.length() - 1);

        ByteArrayOutputStream silent = new ByteArrayOutputStream();
        BenchCommand.VirtualProgress off = new BenchCommand.VirtualProgress(new PrintStream(silent, true,
                StandardCharsets.UTF_8), false);
        off.accept("homing", 1.0);
        off.finish();
        assertThat(silent.size()).isZero();
    }

    static String flat(String s) {
        return s.replaceAll("\\s+", " ");
    }
}
