package dev.homing.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.router.RouterOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --record} and its rotation bounds reach the router's options; bad ones are named back. */
class ServeRecordOptionsTest {

    private static RouterOptions parse(String... args) {
        ServeCommand serve = new ServeCommand();
        new CommandLine(serve).parseArgs(args);
        return serve.options();
    }

    @Test
    void recordingIsOffUnlessAskedAndItsBoundsHaveDefaults() {
        assertThat(parse("--endpoints", "a=127.0.0.1:9").record()).isNull();
        var r = parse("--endpoints", "a=127.0.0.1:9", "--record", "/tmp/t.jsonl").record();
        assertThat(r.file()).isEqualTo(Path.of("/tmp/t.jsonl"));
        assertThat(r.maxBytes()).isEqualTo(100L << 20);
        assertThat(r.maxFiles()).isEqualTo(5);
        var small = parse("--endpoints", "a=127.0.0.1:9", "--record", "t.jsonl", "--record-max-bytes", "64KiB",
                "--record-max-files", "2").record();
        assertThat(small.maxBytes()).isEqualTo(64 << 10);
        assertThat(small.maxFiles()).isEqualTo(2);
        assertThat(parse("--endpoints", "a=127.0.0.1:9", "--record", "t", "--record-max-bytes", "5000").record()
                .maxBytes()).isEqualTo(5000);
    }

    @Test
    void badBoundsExitTwoNamingTheOption() {
        CliRun unit = CliRun.of("serve", "--endpoints", "a=127.0.0.1:9", "--record", "t.jsonl",
                "--record-max-bytes", "10 parsecs");
        assertThat(unit.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(unit.err()).startsWith("homing serve: ").contains("--record-max-bytes").doesNotContain("\tat ");
        CliRun files = CliRun.of("serve", "--endpoints", "a=127.0.0.1:9", "--record", "t.jsonl",
                "--record-max-files", "0");
        assertThat(files.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(files.err()).contains("--record-max-files must be at least 1").doesNotContain("\tat ");
    }
}
