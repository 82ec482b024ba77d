package dev.homing.router.extproc;

import static dev.homing.bench.extproc.EnvoyMessages.post;
import static dev.homing.bench.extproc.EnvoyMessages.requestBody;
import static dev.homing.bench.extproc.EnvoyMessages.requestHeaders;
import static dev.homing.bench.extproc.EnvoyMessages.setHeaders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.bench.extproc.EnvoyMessages;
import dev.homing.bench.extproc.ExtProcCall;
import dev.homing.router.fixtures.TestCluster;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Model rewrites through ext_proc, a client playing Envoy: the body given back names the target (its content-length
 * with it), and the response chunks the gateway passes come back naming the model asked, a name cut across two
 * chunks included.
 */
class ExtProcRewriteIT {

    private static TestCluster cluster;
    private static ManagedChannel channel;

    @BeforeAll
    static void start() {
        cluster = TestCluster.start(2, b -> b, o -> o.with(x -> x.extProcPort = 0));
        channel = ExtProcCall.channel(cluster.router().extProcPort(), true);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        cluster.close();
    }

    @Test
    void theBodyGoesAsTheTargetAndTheStreamComesBackAsAsked() {
        byte[] body = ("{\"model\":\"alias\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":4}")
                .getBytes(StandardCharsets.UTF_8);
        String target = TestCluster.MODEL;
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            Map<String, String> headers = post("/v1/chat/completions", body.length);
            headers.put("x-gateway-model-name-rewrite", target);
            s.send(requestHeaders(headers, false));
            s.send(requestBody(body, 0, 10, false));
            s.send(requestBody(body, 10, body.length, true));
            ProcessingResponse h = s.next();
            Map<String, String> set = setHeaders(h.getRequestHeaders().getResponse().getHeaderMutation());
            byte[] given = ExtProcCall.joined(s.bodyUntilEnd(true), true).toByteArray();
            String forwarded = new String(given, StandardCharsets.UTF_8);
            assertThat(forwarded).isEqualTo(new String(body, StandardCharsets.UTF_8)
                    .replace("\"alias\"", "\"" + target + "\""));
            assertThat(set).containsEntry("content-length", Integer.toString(given.length));

            s.send(EnvoyMessages.responseHeaders(200, "text/event-stream", false));
            ProcessingResponse rh = s.next();
            assertThat(rh.getResponseHeaders().getResponse().getHeaderMutation().getRemoveHeadersList())
                    .contains("content-length");
            String event = "data: {\"id\":\"c1\",\"model\":\"" + target + "\",\"choices\":[]}\n\n";
            int cut = event.indexOf(target) + 4; // the name cut across two chunks
            List<String> chunks = List.of(event.substring(0, cut), event.substring(cut) + event, "data: [DONE]\n\n");
            StringBuilder back = new StringBuilder();
            for (int i = 0; i < chunks.size(); i++) {
                s.send(EnvoyMessages.responseBody(chunks.get(i), i == chunks.size() - 1));
                back.append(s.next().getResponseBody().getResponse().getBodyMutation().getStreamedResponse()
                        .getBody().toStringUtf8());
            }
            String asked = event.replace(target, "alias");
            assertThat(back.toString()).isEqualTo(asked + asked + "data: [DONE]\n\n");
        }
    }

    @Test
    void aJsonAnswerComesBackAsAsked() {
        byte[] body = "{\"model\":\"alias\",\"prompt\":\"hi\",\"max_tokens\":2}".getBytes(StandardCharsets.UTF_8);
        try (ExtProcCall s = ExtProcCall.open(channel)) {
            Map<String, String> headers = post("/v1/completions", body.length);
            headers.put("x-gateway-model-name-rewrite", TestCluster.MODEL);
            s.send(requestHeaders(headers, false));
            s.send(requestBody(body, 0, body.length, true));
            s.next();
            s.bodyUntilEnd(true);
            s.send(EnvoyMessages.responseHeaders(200, "application/json", false));
            s.next();
            s.send(EnvoyMessages.responseBody("{\"id\": \"c2\", \"model\": \"" + TestCluster.MODEL
                    + "\", \"choices\": []}", true));
            assertThat(s.next().getResponseBody().getResponse().getBodyMutation().getStreamedResponse().getBody()
                    .toStringUtf8()).isEqualTo("{\"id\": \"c2\", \"model\": \"alias\", \"choices\": []}");
        }
    }
}
