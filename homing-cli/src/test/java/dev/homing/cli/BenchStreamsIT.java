package dev.homing.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * 500 SSE streams open at once through {@code homing serve} (its own JVM) to a pod that paces its events: every
 * stream is relayed to its end, {@code [DONE]} and the chunked body's close included, none broken. How long the gaps
 * were is the benchmark's business (docs/BENCHMARKS.md); here the command must report them.
 */
class BenchStreamsIT {

    @Test
    void fiveHundredConcurrentStreamsAllFinish() {
        CliRun r = CliRun.of("bench", "streams", "--streams", "500", "--events", "40", "--interval", "100ms",
                "--ramp", "1000");
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("completed 500, failed 0, in")
                .contains("(the heap's run: completed 500, failed 0)").contains("open at the pod while measured: ")
                .contains("KiB a stream (goal <= 64)").contains("a stream's largest gap");
    }
}
