package dev.homing.router.upstream;

import static dev.homing.router.upstream.ScriptedPod.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.router.RouterServer;
import dev.homing.router.fixtures.HttpJson;
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
            if (!ScriptedPod.answeredScrape(r, out, "m")) {
                String body = "{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[],\"usage\":{"
                        + "\"prompt_tokens\":1,\"completion_tokens\":1,\"total_tokens\":2}}";
                write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length()
                        + "\r\n\r\n" + body);
            }
            return true;
        });
             RouterServer router = pod.routerInFront("p1");
             HttpJson http = new HttpJson()) {
            HttpResponse<String> res = http.post("http://127.0.0.1:" + router.port() + "/v1/completions",
                    "{\"model\":\"m\",\"prompt\":\"hi\"}");
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
