package dev.homing.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The README's curl loop, as a user pastes it: 30 curl processes started at once against the router on
 * {@code localhost:PORT}. Each must be answered 200.
 */
final class ReadmeCurlLoop {

    private ReadmeCurlLoop() {
    }

    static void run(int port) throws Exception {
        String loop = """
                for i in $(seq 1 30); do
                  curl -s -o /dev/null -w '%%{http_code}\\n' http://localhost:%d/v1/completions \\
                    -H 'Content-Type: application/json' \\
                    -d "{\\"model\\":\\"Qwen/Qwen2.5-0.5B-Instruct\\",\\"prompt\\":\\"Write one sentence about topic number ${i} in cloud computing.\\",\\"max_tokens\\":20}" &
                done; wait
                """.formatted(port);
        Process curl = new ProcessBuilder("bash", "-c", loop).redirectErrorStream(true).start();
        String codes = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(curl.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(codes.lines().toList()).hasSize(30).containsOnly("200");
    }
}
