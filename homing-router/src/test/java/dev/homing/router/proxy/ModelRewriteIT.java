package dev.homing.router.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.protocol.metrics.Sample;
import dev.homing.router.fixtures.AtomicWrite;
import dev.homing.router.fixtures.HttpJson;
import dev.homing.router.fixtures.TestCluster;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Model rewrites through the HTTP proxy, over real sockets to simulated pods that serve only the target names: a
 * request reaching a pod with the name the client sent would be refused there (404), so every 200 proves the body
 * was rewritten; the client must see the name it sent in the answer, JSON and SSE.
 */
class ModelRewriteIT {

    static final String ASKED = "food-review";
    static final String V1 = "food-review-v1";
    static final String V2 = "food-review-v2";

    private static Path dir;
    private static Path file;
    private static TestCluster cluster;

    static String rewriteFile(String rule) {
        return """
                apiVersion: inference.networking.x-k8s.io/v1alpha2
                kind: InferenceObjective
                metadata: {name: critical}
                spec: {priority: 10, poolRef: {name: homing}}
                ---
                apiVersion: inference.networking.x-k8s.io/v1alpha2
                kind: InferenceModelRewrite
                metadata: {name: canary}
                spec:
                  poolRef: {name: homing}
                  rules:
                  - matches: [{model: {type: Exact, value: food-review}}]
                    targets:
                """ + rule;
    }

    static final String SPLIT = "    - {modelRewrite: food-review-v1, weight: 3}\n"
            + "    - {modelRewrite: food-review-v2, weight: 1}\n";

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("rewrite-it");
        file = AtomicWrite.replace(dir.resolve("objectives.yaml"), rewriteFile(SPLIT));
        cluster = TestCluster.start(2, b -> b.servedModelNames(List.of(V1, V2)), o -> o.with(x -> {
            x.objectivesFile = file;
            x.configPollInterval = Duration.ofMillis(100);
        }));
        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.http().get(cluster.url("/v1/models"))
                .body().contains(V2));
    }

    @AfterAll
    static void stop() throws Exception {
        cluster.close();
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }

    static String completion(String model, boolean stream) {
        return "{\"model\":\"" + model + "\",\"prompt\":\"Say something about food.\",\"max_tokens\":3"
                + (stream ? ",\"stream\":true" : "") + "}";
    }

    private static HttpResponse<String> post(String body, String rewriteHeader) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(cluster.url("/v1/completions")))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (rewriteHeader != null) {
            b.header("x-gateway-model-name-rewrite", rewriteHeader);
        }
        return cluster.http().send(b.build());
    }

    private static double decisions(String target) {
        return cluster.http().metrics(cluster.adminUrl("/metrics"))
                .samples("inference_extension_model_rewrite_decisions_total").stream()
                .filter(s -> s.labels().get("target_model").equals(target)
                        && s.labels().get("model_rewrite_name").equals("canary")
                        && s.labels().get("model_name").equals(ASKED))
                .mapToDouble(Sample::value).sum();
    }

    @Test
    void theHeaderRewritesAModelNoRuleMatchesAndTheAnswerNamesTheModelAsked() {
        HttpResponse<String> r = post(completion("food-review-alias", false), V2);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode json = HttpJson.json(r);
        assertThat(json.get("model").asText()).isEqualTo("food-review-alias");
        assertThat(r.body()).doesNotContain(V2);
        assertThat(r.headers().firstValueAsLong("content-length").orElse(-1)).isEqualTo(r.body().length());
    }

    @Test
    void withoutARewriteAModelNoPodServesIsRefused() {
        assertThat(post(completion("food-review-alias", false), null).statusCode()).isEqualTo(404);
    }

    @Test
    void aWeightedRuleSplitsTrafficAndEveryAnswerNamesTheModelAsked() {
        double v1 = decisions(V1);
        double v2 = decisions(V2);
        int n = 200;
        for (int i = 0; i < n; i++) {
            HttpResponse<String> r = post(completion(ASKED, false), null);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(HttpJson.json(r).get("model").asText()).isEqualTo(ASKED);
        }
        double got1 = decisions(V1) - v1;
        double got2 = decisions(V2) - v2;
        assertThat(got1 + got2).isEqualTo(n);
        // 3:1 of 200: 150 expected, binomial sd ~6.1; 5 sd either way
        assertThat(got1).isBetween(120.0, 180.0);
    }

    @Test
    void aStreamIsGivenBackTheModelAskedInEveryEvent() throws Exception {
        HttpResponse<InputStream> r = cluster.http().postStreaming(cluster.url("/v1/completions"),
                completion(ASKED, true));
        assertThat(r.statusCode()).isEqualTo(200);
        List<String> events = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith("data: {")) {
                    events.add(line);
                }
            }
        }
        assertThat(events).isNotEmpty().allSatisfy(e -> assertThat(e).contains("\"model\":\"" + ASKED + "\"")
                .doesNotContain(V1).doesNotContain(V2));
    }

    @Test
    void theFileIsFollowedAsItChanges() throws Exception {
        try {
            AtomicWrite.replace(file, rewriteFile("    - {modelRewrite: food-review-v2}\n"));
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
                double before = decisions(V1);
                post(completion(ASKED, false), null);
                return decisions(V1) == before; // the new rule sends everything to v2
            });
            double v1 = decisions(V1);
            for (int i = 0; i < 20; i++) {
                assertThat(post(completion(ASKED, false), null).statusCode()).isEqualTo(200);
            }
            assertThat(decisions(V1)).isEqualTo(v1);
            // a broken change is refused: the last good rules stay
            AtomicWrite.replace(file, rewriteFile("    - {modelRewrite: food-review-v1, weight: 0}\n"));
            Thread.sleep(500);
            for (int i = 0; i < 10; i++) {
                post(completion(ASKED, false), null);
            }
            assertThat(decisions(V1)).isEqualTo(v1);
        } finally {
            AtomicWrite.replace(file, rewriteFile(SPLIT));
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
                double before = decisions(V1);
                for (int i = 0; i < 10; i++) {
                    post(completion(ASKED, false), null);
                }
                return decisions(V1) > before;
            });
        }
    }
}
