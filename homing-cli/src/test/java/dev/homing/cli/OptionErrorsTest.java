package dev.homing.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Values no option accepts are named back to the user with exit code 2, never as a stack trace. */
class OptionErrorsTest {

    @Test
    void badValuesAreNamedWithoutAStackTrace() {
        CliRun interval = CliRun.of("serve", "--endpoints", "a=127.0.0.1:9", "--scrape-interval", "soon");
        assertThat(interval.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(interval.err()).startsWith("homing serve: ").contains("soon").doesNotContain("\tat ");

        CliRun endpoints = CliRun.of("serve", "--endpoints", "a=nowhere");
        assertThat(endpoints.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(endpoints.err()).startsWith("homing serve: ").contains("nowhere").doesNotContain("\tat ");

        CliRun preset = CliRun.of("up", "--preset", "no-such-preset");
        assertThat(preset.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(preset.err()).startsWith("homing up: ").contains("no-such-preset").doesNotContain("\tat ");
    }
}
