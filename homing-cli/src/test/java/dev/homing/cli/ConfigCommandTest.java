package dev.homing.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigCommandTest {

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            int exit = Main.run(args);
            return new Run(exit, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void checkPrintsTheResolvedProfiles() throws Exception {
        Path file = dir.resolve("epp.yaml");
        Files.writeString(file, """
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                plugins:
                - type: queue-scorer
                - type: prefix-cache-scorer
                schedulingProfiles:
                - name: default
                  plugins:
                  - pluginRef: prefix-cache-scorer
                    weight: 3
                  - pluginRef: queue-scorer
                    weight: 2
                """);
        Run r = run("config", "check", file.toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains(file + ": OK (llm-d.ai/v1alpha1)")
                .contains("scorers: prefix-cache-scorer x3, queue-scorer x2")
                .contains("picker:  max-score-picker (default)")
                .contains("profile handler: single-profile-handler (default)");
    }

    @Test
    void checkNamesTheLineOfABrokenConfig() throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, "apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: queue-scorr\n");
        Run r = run("config", "check", file.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).startsWith("homing: " + file + ":4: unknown plugin type 'queue-scorr'; known types: ")
                .contains("queue-scorer").doesNotContain("Exception");
    }

    @Test
    void defaultPrintsTheBuiltInConfig() {
        Run r = run("config", "default");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("kind: EndpointPickerConfig").contains("active-request-scorer");
    }
}
