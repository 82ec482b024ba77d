package dev.homing.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jar's {@code up}, as a user runs it: pods and router come up, the reference's curl loop gets 30 x 200,
 * and SIGTERM shuts everything down.
 */
class UpCommandIT {

    private static final Path JAR = Path.of("target", "homing.jar");

    @TempDir
    Path dir;

    @Test
    void upServesTheReferenceCurlLoopAndStopsOnSigterm() throws Exception {
        assertThat(Files.isRegularFile(JAR)).as("the runnable jar is built in the package phase").isTrue();
        int[] ports = FreePorts.of(2);
        int port = ports[0];
        int admin = ports[1];
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Output to a file, not a pipe: the JDK drains a dead child's pipe behind a reading thread's back.
        Path log = dir.resolve("up.log");
        Process up = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-jar", JAR.toString(), "up",
                "--port", Integer.toString(port), "--admin-port", Integer.toString(admin), "--seed", "5")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> lines(log).stream().anyMatch(l -> l.contains("serving; Ctrl-C to stop")));
            assertThat(lines(log).stream().filter(l -> l.matches("\\s+qwen2-5-0-5b-instruct-[a-z0-9]+-[a-z0-9]{5}\\s+127\\.0\\.0\\.1:\\d+")))
                    .hasSize(3);

            ReadmeCurlLoop.run(port);
        } finally {
            up.destroy(); // SIGTERM
            assertThat(up.waitFor(30, TimeUnit.SECONDS)).as("up stops on SIGTERM").isTrue();
        }
        assertThat(lines(log)).anyMatch(l -> l.contains("homing: shutting down"));
    }

    private static List<String> lines(Path file) throws Exception {
        return Files.readAllLines(file, StandardCharsets.UTF_8);
    }
}
