package dev.homing.router.auth;

import static dev.homing.router.fixtures.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.router.fixtures.TestCluster;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may use the router, over real sockets: API keys (401 in OpenAI's shape, rotated by writing the file), the admin
 * token (probes stay open), {@code x-homing-explain} only for the trusted, what the pods are told of a client's
 * {@code Authorization}, and that a client cannot make the router dial an address outside the pool.
 */
class SecurityIT {

    private static final String BODY = "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"hi\",\"max_tokens\":2}";

    @TempDir
    Path dir;

    private static HttpResponse<String> post(TestCluster c, String path, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(c.url(path))).timeout(Duration.ofSeconds(30))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(BODY));
        headers.forEach(b::header);
        return c.http().send(b.build());
    }

    private static HttpResponse<String> get(TestCluster c, String url, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET();
        headers.forEach(b::header);
        return c.http().send(b.build());
    }

    @Test
    void apiKeysAreAskedForAndRotatedByWritingTheFile() throws Exception {
        Path keys = dir.resolve("keys");
        Files.writeString(keys, "# clients\nsk-old\n");
        try (TestCluster c = TestCluster.start(1, b -> b, o -> o.with(x -> {
            x.apiKeysFile = keys;
            x.configPollInterval = Duration.ofMillis(100);
        }))) {
            HttpResponse<String> none = post(c, "/v1/completions", Map.of());
            assertThat(none.statusCode()).isEqualTo(401);
            assertThat(none.headers().firstValue("www-authenticate")).contains("Bearer");
            assertThat(json(none).path("error").path("type").asText()).isEqualTo("AuthenticationError");
            assertThat(json(none).path("error").path("code").asInt()).isEqualTo(401);
            assertThat(post(c, "/v1/completions", Map.of("authorization", "Bearer sk-ol")).statusCode()).isEqualTo(401);
            assertThat(post(c, "/v1/completions", Map.of("authorization", "Bearer sk-old")).statusCode())
                    .isEqualTo(200);
            assertThat(get(c, c.url("/v1/models"), Map.of()).statusCode()).isEqualTo(401);
            assertThat(get(c, c.url("/health"), Map.of()).statusCode()).as("probes need no key").isEqualTo(200);
            Files.writeString(keys, "sk-new\n");
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    post(c, "/v1/completions", Map.of("authorization", "Bearer sk-new")).statusCode() == 200);
            assertThat(post(c, "/v1/completions", Map.of("authorization", "Bearer sk-old")).statusCode())
                    .isEqualTo(401);
            assertThat(c.routerInFlight()).isZero();
        }
    }

    @Test
    void theAdminTokenGuardsTheAdminPortButItsProbesAndItAloneUnlocksExplain() {
        try (TestCluster c = TestCluster.start(1, b -> b, o -> o.with(x -> x.adminToken = "root-token"))) {
            assertThat(get(c, c.adminUrl("/metrics"), Map.of()).statusCode()).isEqualTo(401);
            assertThat(get(c, c.adminUrl("/debug/endpoints"), Map.of("authorization", "Bearer nope")).statusCode())
                    .isEqualTo(401);
            assertThat(get(c, c.adminUrl("/metrics"), Map.of("authorization", "Bearer root-token")).statusCode())
                    .isEqualTo(200);
            assertThat(get(c, c.adminUrl("/healthz"), Map.of()).statusCode()).isEqualTo(200);
            assertThat(get(c, c.adminUrl("/readyz"), Map.of()).statusCode()).isEqualTo(200);

            HttpResponse<String> untrusted = post(c, "/v1/completions", Map.of("x-homing-explain", "true"));
            assertThat(untrusted.statusCode()).isEqualTo(200);
            assertThat(untrusted.headers().firstValue("x-homing-explain")).as("no pod names for anyone").isEmpty();
            HttpResponse<String> trusted = post(c, "/v1/completions", Map.of("x-homing-explain", "true",
                    "x-homing-admin-token", "root-token"));
            assertThat(trusted.headers().firstValue("x-homing-explain")).isPresent();
            assertThat(c.pod(0).lastRequestHeaders()).as("the admin token never reaches a pod")
                    .doesNotContainKey("x-homing-admin-token");
        }
    }

    @Test
    void explainForAllTrustsEveryClient() {
        try (TestCluster c = TestCluster.start(1, b -> b, o -> o.with(x -> x.explainForAll = true))) {
            assertThat(post(c, "/v1/completions", Map.of("x-homing-explain", "true")).headers()
                    .firstValue("x-homing-explain")).isPresent();
        }
    }

    @Test
    void podsAreToldTheirOwnTokenTheClientsOrNothing() throws Exception {
        Path tokens = dir.resolve("pod-tokens");
        Files.writeString(tokens, "pod-0 zero-token\n");
        try (TestCluster c = TestCluster.start(2, b -> b, o -> o.with(x -> x.podTokensFile = tokens))) {
            for (int i = 0; i < 12; i++) {
                HttpResponse<String> r = post(c, "/v1/completions", Map.of("authorization", "Bearer client-key",
                        "x-homing-explain", "true"));
                String pod = r.headers().firstValue("x-homing-pod").orElseThrow();
                int n = pod.equals("pod-0") ? 0 : 1;
                assertThat(c.pod(n).lastRequestHeaders().get("authorization"))
                        .isEqualTo(n == 0 ? "Bearer zero-token" : "Bearer client-key");
            }
        }
        try (TestCluster c = TestCluster.start(1, b -> b, o -> o.with(x -> x.stripAuthorization = true))) {
            post(c, "/v1/completions", Map.of("authorization", "Bearer client-key"));
            assertThat(c.pod(0).lastRequestHeaders()).doesNotContainKey("authorization");
        }
        try (TestCluster c = TestCluster.start(1)) {
            post(c, "/v1/completions", Map.of("authorization", "Bearer client-key"));
            assertThat(c.pod(0).lastRequestHeaders().get("authorization")).as("as llm-d: passed on")
                    .isEqualTo("Bearer client-key");
        }
    }

    @Test
    void aClientCannotMakeTheRouterDialAnAddressOutsideThePool() throws Exception {
        try (ServerSocket bait = new ServerSocket(0);
             TestCluster c = TestCluster.start(1)) {
            bait.setSoTimeout(1000);
            String elsewhere = "127.0.0.1:" + bait.getLocalPort();
            HttpResponse<String> r = post(c, "/v1/completions", Map.of("x-gateway-destination-endpoint", elsewhere,
                    "x-gateway-destination-endpoint-subset", elsewhere));
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("x-homing-pod")).contains("pod-0");
            try {
                bait.accept().close();
                throw new AssertionError("the router dialled " + elsewhere);
            } catch (SocketTimeoutException expected) {
                // nothing came
            }
        }
    }
}
