package dev.homing.router.upstream;

import static dev.homing.router.upstream.ScriptedPod.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pod that leaves the pool takes its kept connections with it: the scraper's and the proxy's idle ones to it are
 * closed at once (the pod sees each end), not left open until they would have been used again, which is never.
 */
class RemovedPodConnectionsIT {

    @Test
    void theIdleConnectionsToAPodThatLeftAreClosed() throws Exception {
        try (ScriptedPod pod = new ScriptedPod((r, out, s) -> {
            String body = r.requestLine().startsWith("GET /v1/models")
                    ? "{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"object\":\"model\"}]}"
                    : r.requestLine().startsWith("GET /metrics") ? "vllm:num_requests_waiting{model_name=\"m\"} 0\n"
                    : "{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[],\"usage\":{\"prompt_tokens\":1,"
                            + "\"completion_tokens\":1,\"total_tokens\":2}}";
            write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length()
                    + "\r\n\r\n" + body);
            return true;
        });
             RouterServer router = RouterServer.start(RouterOptions.defaults(List.of(new Endpoint("p1",
                     "127.0.0.1", Integer.parseInt(pod.address().substring(pod.address().indexOf(':') + 1)))))
                     .with(o -> {
                         o.port = 0;
                         o.adminPort = 0;
                     }));
             HttpClient http = HttpClient.newHttpClient()) {
            await().atMost(Duration.ofSeconds(10)).until(() -> router.catalog().status("p1").modelsKnown());
            HttpResponse<String> res = http.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + router.port() + "/v1/completions"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"prompt\":\"hi\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(res.statusCode()).isEqualTo(200);
            // the scraper's connection and the proxy's are both kept, open
            await().atMost(Duration.ofSeconds(5)).until(() -> pod.connections.get() >= 2);
            int opened = pod.connections.get();
            assertThat(pod.clientCloses.get()).isZero();
            router.pool().setEndpoints(List.of());
            await().atMost(Duration.ofSeconds(5)).until(() -> pod.clientCloses.get() == opened);
        }
    }
}
