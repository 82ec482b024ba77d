package dev.homing.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.sim.engine.Preset;
import dev.homing.sim.http.SimPod;
import dev.homing.sim.http.SimPodConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jar's {@code serve}, stopped as Kubernetes stops it (SIGTERM) while a stream is open: the stream runs to
 * its {@code [DONE]}, then the process exits. Before the drain, SIGTERM cut such a stream where it was.
 */
class ServeSigtermIT {

    private static final Path JAR = Path.of("target", "homing.jar");
    private static final String MODEL = "Qwen/Qwen2.5-0.5B-Instruct";

    @TempDir
    Path dir;

    @Test
    void aStreamOpenAtSigtermRunsToItsEnd() throws Exception {
        assertThat(Files.isRegularFile(JAR)).as("the runnable jar is built in the package phase").isTrue();
        int[] ports = FreePorts.of(2);
        try (SimPod pod = SimPod.start(SimPodConfig.builder().preset(Preset.byName("cpu-qwen2.5-0.5b")).model(MODEL)
                .servedModelNames(List.of(MODEL)).podName("pod-0").build());
             HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Path log = dir.resolve("serve.log");
            Process serve = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-jar", JAR.toString(),
                    "serve", "--endpoints", "pod-0=127.0.0.1:" + pod.port(), "--port", Integer.toString(ports[0]),
                    "--admin-port", Integer.toString(ports[1]), "--drain-timeout", "20s")
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> Files.readString(log).contains("homing: routing"));
                String body = "{\"model\":\"" + MODEL + "\",\"prompt\":\"sigterm\",\"max_tokens\":150,"
                        + "\"ignore_eos\":true,\"stream\":true}";
                HttpResponse<java.io.InputStream> res = http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + ports[0] + "/v1/completions"))
                        .header("content-type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                assertThat(res.statusCode()).isEqualTo(200);
                BufferedReader lines = new BufferedReader(new InputStreamReader(res.body(), StandardCharsets.UTF_8));
                int chunks = 0;
                String last = null;
                for (String line; (line = lines.readLine()) != null; ) {
                    if (!line.startsWith("data: ")) {
                        continue;
                    }
                    last = line;
                    if (++chunks == 5) {
                        serve.destroy(); // SIGTERM, mid-stream
                    }
                }
                assertThat(chunks).as("every token came, then [DONE]").isGreaterThanOrEqualTo(151);
                assertThat(last).isEqualTo("data: [DONE]");
                assertThat(serve.waitFor(30, TimeUnit.SECONDS)).as("the process ends once the stream has").isTrue();
                assertThat(Files.readString(log)).contains("homing: shutting down");
            } finally {
                serve.destroyForcibly();
            }
        }
    }
}
