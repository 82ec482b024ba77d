package dev.homing.router.proxy;

import static dev.homing.router.fixtures.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.router.fixtures.HttpJson;
import dev.homing.router.fixtures.TestCluster;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Clients' mistakes get 4xx in OpenAI's shape and leave nothing behind. */
class BadInputIT {

    private static TestCluster cluster;

    @BeforeAll
    static void start() {
        cluster = TestCluster.start(1, b -> b, o -> o.with(x -> x.maxBodyBytes = 4096));
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @AfterEach
    void nothingLeftInFlight() {
        assertThat(cluster.routerInFlight()).isZero();
    }

    private static void assertOpenAiError(HttpResponse<String> res, int status, String param) {
        assertThat(res.statusCode()).isEqualTo(status);
        assertThat(res.headers().firstValue("content-type")).contains("application/json");
        JsonNode error = json(res).path("error");
        assertThat(error.path("message").asText()).isNotBlank();
        assertThat(error.path("type").asText()).isNotBlank();
        assertThat(error.path("code").asInt()).isEqualTo(status);
        if (param == null) {
            assertThat(error.path("param").isNull()).isTrue();
        } else {
            assertThat(error.path("param").asText()).isEqualTo(param);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "malformed JSON       | /v1/completions      | {\"model\":                                   | 400 | ",
            "missing model        | /v1/completions      | {\"prompt\":\"hi\"}                             | 400 | model",
            "missing prompt       | /v1/completions      | {\"model\":\"Qwen/Qwen2.5-0.5B-Instruct\"}      | 400 | prompt",
            "prompt wrong type    | /v1/completions      | {\"model\":\"Qwen/Qwen2.5-0.5B-Instruct\",\"prompt\":{}} | 400 | prompt",
            "max_tokens wrong     | /v1/completions      | {\"model\":\"Qwen/Qwen2.5-0.5B-Instruct\",\"prompt\":\"x\",\"max_tokens\":\"9\"} | 400 | max_tokens",
            "missing messages     | /v1/chat/completions | {\"model\":\"Qwen/Qwen2.5-0.5B-Instruct\"}      | 400 | messages",
            "messages wrong type  | /v1/chat/completions | {\"model\":\"Qwen/Qwen2.5-0.5B-Instruct\",\"messages\":\"hi\"} | 400 | messages",
            "unknown model        | /v1/completions      | {\"model\":\"no-such-model\",\"prompt\":\"hi\"}  | 404 | model",
    })
    void badRequestsAreClientErrors(String why, String path, String body, int status, String param) {
        assertOpenAiError(cluster.http().post(cluster.url(path), body), status, param);
    }

    @Test
    void unknownPathAndWrongMethod() {
        assertOpenAiError(cluster.http().get(cluster.url("/v1/nope")), 404, null);
        assertOpenAiError(cluster.http().get(cluster.url("/v1/completions")), 405, null);
        assertOpenAiError(cluster.http().get(cluster.adminUrl("/nope")), 404, null);
    }

    @Test
    void bodyOverTheLimitIs413() {
        String big = "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"" + "x".repeat(5000) + "\"}";
        assertOpenAiError(cluster.http().post(cluster.url("/v1/completions"), big), 413, null);
        HttpResponse<String> chunked = cluster.http().send(HttpRequest.newBuilder(URI.create(cluster.url("/v1/completions")))
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(big.getBytes())))
                .build());
        assertOpenAiError(chunked, 413, null);
    }

    @Test
    void noPodReachableIs503AndLeavesNoLoad() throws Exception {
        int deadPort;
        try (ServerSocket s = new ServerSocket(0)) {
            deadPort = s.getLocalPort();
        }
        RouterOptions o = RouterOptions.defaults(List.of(new Endpoint("gone-0", "127.0.0.1", deadPort),
                new Endpoint("gone-1", "127.0.0.1", deadPort))).with(x -> {
                    x.port = 0;
                    x.adminPort = 0;
                    // each pod tried and found dead on this request's path; with active checks on, a probe may have
                    // taken both out first (a 503 as fast, naming no pod: EjectionIT's case)
                    x.healthCheckInterval = Duration.ZERO;
                });
        try (RouterServer router = RouterServer.start(o); HttpJson http = new HttpJson()) {
            HttpResponse<String> res = http.post("http://127.0.0.1:" + router.port() + "/v1/completions",
                    "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"hi\"}");
            assertOpenAiError(res, 503, null);
            assertThat(json(res).path("error").path("message").asText()).contains("gone-0").contains("gone-1");
            // the last attempt's load is released as its dispatch closes, which may be just after the 503 is out
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(router.pool().snapshot().endpoints())
                    .allSatisfy(e -> assertThat(e.inFlightRequests()).isZero()));
        }
    }
}
