package dev.homing.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigCommandTest {

    @TempDir
    Path dir;

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
        CliRun r = CliRun.of("config", "check", file.toString());
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
        CliRun r = CliRun.of("config", "check", file.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).startsWith("homing: " + file + ":4: unknown plugin type 'queue-scorr'; known types: ")
                .contains("queue-scorer").doesNotContain("Exception");
    }

    @Test
    void checkExitsZeroAndPrintsTheWarningsOfAFileThatLoadsWithThem() throws Exception {
        Path file = dir.resolve("sim-epp-no-hit-lru.yaml");
        Files.writeString(file, """
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                plugins:
                - type: probabilistic-admitter
                - type: precise-prefix-cache-scorer
                  parameters:
                    indexerConfig:
                      kvBlockIndexConfig:
                        maxPrefixBlocksToMatch: 256
                """);
        CliRun r = CliRun.of("config", "check", file.toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains(file + ": OK (llm-d.ai/v1alpha1)")
                .contains("scorers: precise-prefix-cache-scorer x1")
                .contains("admission: legacy (sheddable requests refused while the pool is saturated)")
                .contains("warning: " + file + ":9: plugin 'precise-prefix-cache-producer' "
                        + "(precise-prefix-cache-producer): parameter "
                        + "'indexerConfig.kvBlockIndexConfig.maxPrefixBlocksToMatch': unknown, ignored");
    }

    @Test
    void defaultPrintsTheBuiltInConfig() {
        CliRun r = CliRun.of("config", "default");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("kind: EndpointPickerConfig").contains("active-request-scorer");
    }
}
