package dev.homing.router.record;

import static dev.homing.bench.extproc.EnvoyMessages.post;
import static dev.homing.bench.extproc.EnvoyMessages.requestBody;
import static dev.homing.bench.extproc.EnvoyMessages.requestHeaders;
import static dev.homing.bench.extproc.EnvoyMessages.setHeaders;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.bench.extproc.EnvoyMessages;
import dev.homing.bench.extproc.ExtProcCall;
import dev.homing.router.fixtures.TestCluster;
import io.grpc.ManagedChannel;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Both data planes are recorded, through the one response hook: the HTTP proxy and the ext_proc picker. */
class RecordDataPlanesIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final dev.homing.sim.engine.EngineConfig FAST = dev.homing.sim.engine.Preset.CPU_QWEN2_5_0_5B
            .engine().withCost(dev.homing.sim.engine.CostModel.simple(0, 20_000, 2_000_000, 0));

    @TempDir
    Path dir;

    @Test
    void aProxiedAndAPickedRequestAreEachOneLineWithTheirUsageAndNoneOfTheirText() throws Exception {
        Path file = dir.resolve("trace.jsonl");
        String proxied = "{\"model\":\"" + TestCluster.MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":"
                + "\"A secret about " + "tea ".repeat(800) + "\"}],\"max_tokens\":5,\"ignore_eos\":true}";
        String picked = "{\"model\":\"" + TestCluster.MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":"
                + "\"Count slowly\"}],\"max_tokens\":12,\"ignore_eos\":true,\"stream\":true,\"user\":\"bob@corp\","
                + "\"stream_options\":{\"include_usage\":true}}";
        long proxiedPrompt;
        try (TestCluster c = TestCluster.start(2, b -> b.engine(FAST), o -> o.with(x -> {
            x.extProcPort = 0;
            x.secureServing = false;
            x.record = RecordOptions.of(file, 1 << 20, 2);
        })); HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(c.url("/v1/chat/completions")))
                    .header("content-type", "application/json").header("x-session-id", "alice-42")
                    .POST(HttpRequest.BodyPublishers.ofString(proxied)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            proxiedPrompt = JSON.readTree(r.body()).at("/usage/prompt_tokens").asLong();

            ManagedChannel ch = ExtProcCall.channel(c.router().extProcPort(), false);
            byte[] body = picked.getBytes(StandardCharsets.UTF_8);
            try (ExtProcCall s = ExtProcCall.open(ch)) {
                s.send(requestHeaders(post("/v1/chat/completions", body.length), false));
                s.send(requestBody(body, 0, body.length, true));
                String destination = setHeaders(s.next().getRequestHeaders().getResponse().getHeaderMutation())
                        .get("x-gateway-destination-endpoint");
                byte[] given = ExtProcCall.joined(s.bodyUntilEnd(true), true).toByteArray();
                // Envoy's part: the body to the destination, the response back through the picker
                HttpResponse<InputStream> res = http.send(HttpRequest.newBuilder(
                                URI.create("http://" + destination + "/v1/chat/completions"))
                        .header("content-type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(given)).build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                assertThat(res.statusCode()).isEqualTo(200);
                s.send(EnvoyMessages.responseHeaders(200, res.headers().firstValue("content-type").orElse(""), false));
                s.next();
                try (InputStream in = res.body()) {
                    byte[] buf = new byte[512];
                    for (int n; (n = in.read(buf)) > 0; ) {
                        s.send(EnvoyMessages.responseBody(new String(buf, 0, n, StandardCharsets.UTF_8), false));
                        s.next();
                    }
                }
                s.send(EnvoyMessages.responseBody("", true));
                s.next();
            }
            ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        } // closing the router writes what is queued

        String text = Files.readString(file);
        assertThat(text).doesNotContain("alice").doesNotContain("bob").doesNotContain("tea").doesNotContain("Count");
        List<JsonNode> lines = new ArrayList<>();
        for (String l : text.split("\n")) {
            lines.add(JSON.readTree(l));
        }
        assertThat(lines).hasSize(2);
        JsonNode p = lines.get(0);
        assertThat(p.get("input_length").asLong()).isEqualTo(proxiedPrompt).isGreaterThan(512);
        assertThat(p.get("output_length").asLong()).isEqualTo(5);
        assertThat(p.get("hash_ids")).hasSize((int) ((proxiedPrompt + 511) / 512));
        assertThat(p.get("session_id").asText()).isEqualTo("0");
        assertThat(p.get("timestamp").asLong()).isZero();
        JsonNode e = lines.get(1);
        assertThat(e.get("output_length").asLong()).isEqualTo(12);
        assertThat(e.get("input_length").asLong()).isPositive();
        assertThat(e.get("hash_ids")).hasSize(1);
        assertThat(e.get("hash_ids").get(0).asInt()).isEqualTo(p.get("hash_ids").size()); // numbered after p's
        assertThat(e.get("session_id").asText()).isEqualTo("1");
    }
}
