package dev.homing.router.proxy;

import static dev.homing.router.upstream.ScriptedPod.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import dev.homing.router.upstream.ScriptedPod;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
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
            if (r.requestLine().startsWith("GET /v1/models")) {
                String body = "{\"object\":\"list\",\"data\":[{\"id\":\"" + MODEL + "\",\"object\":\"model\"}]}";
                write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length()
                        + "\r\n\r\n" + body);
                return true;
            }
            if (r.requestLine().startsWith("GET /metrics")) {
                String body = "vllm:num_requests_running{model_name=\"" + MODEL + "\"} 0\n"
                        + "vllm:num_requests_waiting{model_name=\"" + MODEL + "\"} 0\n";
                write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + body.length()
                        + "\r\n\r\n" + body);
                return true;
            }
            write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\":\"cm");
            return false; // closed with 91 bytes unsent
        });
             RouterServer router = RouterServer.start(RouterOptions.defaults(List.of(new Endpoint("p1",
                     "127.0.0.1", Integer.parseInt(pod.address().substring(pod.address().indexOf(':') + 1)))))
                     .with(o -> {
                         o.port = 0;
                         o.adminPort = 0;
                     }));
             HttpClient http = HttpClient.newHttpClient()) {
            await().atMost(Duration.ofSeconds(10)).until(() -> router.catalog().status("p1").modelsKnown());
            for (int i = 0; i < 2; i++) {
                HttpResponse<String> res = http.send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + router.port() + "/v1/completions"))
                        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + MODEL
                                + "\",\"prompt\":\"hi\",\"max_tokens\":3}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(res.statusCode()).isEqualTo(502);
                JsonNode error = new ObjectMapper().readTree(res.body()).path("error");
                assertThat(error.path("message").asText()).contains("stopped after 9 of 100 bytes");
                assertThat(error.path("type").asText()).isNotEmpty();
            }
            await().atMost(Duration.ofSeconds(5)).until(() ->
                    router.pool().snapshot().get("p1").load().inFlightRequests() == 0);
        }
    }
}
