package dev.homing.sim.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Test helper: Prometheus' own {@code promtool check metrics} (Debian package {@code prometheus}) on an exposition. */
final class Promtool {

    private Promtool() {
    }

    /**
     * Asserts that promtool parses {@code exposition} and objects to nothing but what vLLM's own names draw: the colon
     * in every {@code vllm:} name, and the {@code _total} suffix of the histogram {@code vllm:iteration_tokens_total}.
     * A real vLLM's {@code /metrics} gets exactly these complaints.
     */
    static void assertOnlyVllmNamingComplaints(String exposition, Path dir) throws IOException, InterruptedException {
        Path file = Files.createTempFile(dir, "metrics", ".txt");
        Files.writeString(file, exposition);
        Process lint;
        try {
            lint = new ProcessBuilder("promtool", "check", "metrics").redirectInput(file.toFile())
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError("promtool is missing: install the Debian package prometheus", e);
        }
        assertThat(lint.waitFor(30, TimeUnit.SECONDS)).as("promtool finished").isTrue();
        String out = new String(lint.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        // 0: clean; 3: lint findings only. 1 would mean it could not parse the exposition.
        assertThat(lint.exitValue()).as("promtool check metrics:\n%s", out).isIn(0, 3);
        List<String> lines = out.lines().toList();
        assertThat(lines).allSatisfy(line -> assertThat(line).satisfiesAnyOf(
                l -> assertThat(l).matches("vllm:[a-z0-9_]+ metric names should not contain ':'"),
                l -> assertThat(l).isEqualTo(
                        "vllm:iteration_tokens_total non-counter metrics should not have \"_total\" suffix")));
    }
}
