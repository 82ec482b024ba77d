package dev.homing.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code homing bench proxy} end to end on this machine: Debian's nginx as pod and as proxy, {@code homing serve} in
 * a JVM of its own, the load generator against all three. Numbers are not judged here (timings are the benchmark's
 * business, docs/BENCHMARKS.md); that every target answered every request, and the summary, are.
 */
class BenchProxyIT {

    private static final Pattern ROW = Pattern.compile(
            "^(direct|nginx|homing|health)\\s+1\\s+(\\d+ closed|\\d+/s open)\\s+(\\d+)\\s+(\\d+)\\s", Pattern.MULTILINE);

    @Test
    void measuresDirectNginxAndHomingOnOnePodAndSummarises() {
        CliRun r = CliRun.of("bench", "proxy", "--warmup", "2s", "--duration", "1s", "--rounds", "1",
                "--connections", "8", "--rate", "200");
        assertThat(r.exit()).as(r.err()).isZero();
        Matcher m = ROW.matcher(r.out());
        int rows = 0;
        while (m.find()) {
            rows++;
            assertThat(Long.parseLong(m.group(3))).as(m.group()).isPositive();
            assertThat(m.group(4)).as("errors in " + m.group()).isEqualTo("0");
        }
        assertThat(rows).as(r.out()).isEqualTo(7);
        assertThat(r.out()).contains("homing is").contains("of nginx's (goal >= 80 %)")
                .contains("p99 over direct: nginx adds").contains("(goal <= 1 ms)")
                .containsPattern("Homing's CPU a request \\(its process, closed loop\\): \\d+\\.\\d µs proxied, \\d+\\.\\d µs");
    }
}
