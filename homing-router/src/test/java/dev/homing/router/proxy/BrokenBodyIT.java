package dev.homing.router.proxy;

import static dev.homing.router.fixtures.HttpJson.json;
import static dev.homing.router.upstream.ScriptedPod.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.router.RouterServer;
import dev.homing.router.fixtures.HttpJson;
import dev.homing.router.upstream.ScriptedPod;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A pod that declares a body and breaks off before its end: the client gets a 502 in OpenAI's shape rather than a cut
 * body, and the load the pick credited is released; the next request finds the pod again.
 */
class BrokenBodyIT {

    private static final String MODEL = "m";

    @Test
    void aBodyCutShortIsA502AndLeavesNothingInFlight() throws Exception {
        try (ScriptedPod pod = new ScriptedPod((r, out, s) -> {
            if (ScriptedPod.answeredScrape(r, out, MODEL)) {
                return true;
            }
            write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\":\"cm");
            return false; // closed with 91 bytes unsent
        });
             RouterServer router = pod.routerInFront("p1");
             HttpJson http = new HttpJson()) {
            for (int i = 0; i < 2; i++) {
                HttpResponse<String> res = http.post("http://127.0.0.1:" + router.port() + "/v1/completions",
                        "{\"model\":\"" + MODEL + "\",\"prompt\":\"hi\",\"max_tokens\":3}");
                assertThat(res.statusCode()).isEqualTo(502);
                JsonNode error = json(res).path("error");
                assertThat(error.path("message").asText()).contains("stopped after 9 of 100 bytes");
                assertThat(error.path("type").asText()).isNotEmpty();
            }
            await().atMost(Duration.ofSeconds(5)).until(() ->
                    router.pool().snapshot().get("p1").load().inFlightRequests() == 0);
        }
    }
}
