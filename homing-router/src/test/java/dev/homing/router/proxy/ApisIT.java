package dev.homing.router.proxy;

import static dev.homing.protocol.fixtures.OpenAiErrors.assertError;
import static dev.homing.router.fixtures.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.protocol.metrics.VllmMetrics;
import dev.homing.router.fixtures.TestCluster;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The APIs beyond completions and chat, through the router to simulated pods: the Responses API and its stored
 * responses (only the pod that made one can answer a follow-up naming it), embeddings, and the paths the router
 * forwards by model without reading them.
 */
class ApisIT {

    private static final String MODEL = TestCluster.MODEL;
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    private static TestCluster cluster;

    @BeforeAll
    static void start() {
        cluster = TestCluster.start(3);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @AfterEach
    void nothingLeftInFlight() {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> cluster.routerInFlight() == 0 && cluster.routerPendingPrefill() == 0);
    }

    private static String pod(HttpResponse<?> res) {
        return res.headers().firstValue("x-homing-pod").orElseThrow();
    }

    private static HttpResponse<String> post(String path, String body) {
        return cluster.http().post(cluster.url(path), body);
    }

    private static String response(String input, String previous, boolean stream) {
        return "{\"model\":\"" + MODEL + "\",\"input\":\"" + input + "\",\"max_output_tokens\":4,\"ignore_eos\":true"
                + (previous == null ? "" : ",\"previous_response_id\":\"" + previous + "\"")
                + (stream ? ",\"stream\":true" : "") + "}";
    }

    /** The id a streamed response announced, read from the stream the router relayed. */
    private static String streamedId(HttpResponse<String> res) {
        for (String line : res.body().split("\n")) {
            if (line.startsWith("data: ") && line.contains("\"response.completed\"")) {
                try {
                    return JSON.readTree(line.substring(6)).path("response").path("id").asText();
                } catch (java.io.IOException e) {
                    throw new AssertionError(e);
                }
            }
        }
        throw new AssertionError("no response.completed in " + res.body());
    }

    @Test
    void everyFollowUpOfAConversationGoesToThePodThatStoredItsPreviousResponse() {
        Set<String> podsUsed = new HashSet<>();
        for (int conversation = 0; conversation < 6; conversation++) {
            boolean stream = conversation % 2 == 1;
            HttpResponse<String> first = post("/v1/responses",
                    response("Conversation " + conversation + " begins with a question", null, stream));
            assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
            String pod = pod(first);
            podsUsed.add(pod);
            String id = stream ? streamedId(first) : json(first).path("id").asText();
            for (int turn = 0; turn < 3; turn++) {
                HttpResponse<String> next = post("/v1/responses", response("Turn " + turn, id, turn == 1));
                // any other pod would answer 404: it never stored that response
                assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
                assertThat(pod(next)).isEqualTo(pod);
                id = turn == 1 ? streamedId(next) : json(next).path("id").asText();
            }
            // the stored response itself is found on its pod too, by the path that names it
            HttpResponse<String> stored = cluster.http().get(cluster.url("/v1/responses/" + id));
            assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);
            assertThat(pod(stored)).isEqualTo(pod);
            assertThat(json(stored).path("id").asText()).isEqualTo(id);
        }
        // the conversations were spread, so landing on the right pod was not luck
        assertThat(podsUsed).hasSizeGreaterThan(1);
        assertThat(cluster.router().director().responses().pinned()).isGreaterThanOrEqualTo(24);
    }

    @Test
    void aResponseNoPodStoredIsRoutedAsAnyOtherAndThePodSays404() {
        HttpResponse<String> res = post("/v1/responses", response("hello", "resp_never_made", false));
        assertError(res, 404, "response_id");
    }

    @Test
    void aClientThatLeavesAStreamedResponseReleasesItsLoadAndAbortsOnThePod() throws Exception {
        String body = "{\"model\":\"" + MODEL + "\",\"input\":\"Tell a very long story\",\"max_output_tokens\":2000,"
                + "\"ignore_eos\":true,\"stream\":true}";
        long learnt = cluster.router().director().responses().learnt();
        HttpResponse<InputStream> res = cluster.http().postStreaming(cluster.url("/v1/responses"), body);
        assertThat(res.statusCode()).isEqualTo(200);
        int index = Integer.parseInt(pod(res).substring("pod-".length()));
        try (BufferedReader r = new BufferedReader(new InputStreamReader(res.body(), StandardCharsets.UTF_8))) {
            int deltas = 0;
            for (String line; deltas < 3 && (line = r.readLine()) != null; ) {
                if (line.contains("response.output_text.delta")) {
                    deltas++;
                }
            }
            assertThat(deltas).isEqualTo(3);
            assertThat(cluster.routerInFlight()).isEqualTo(1);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.routerInFlight() == 0);
        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.http().metrics(cluster.podUrl(index, "/metrics"))
                .latest(VllmMetrics.NUM_REQUESTS_RUNNING) == 0);
        // its id was announced before the client left: a follow-up naming it still finds its pod
        assertThat(cluster.router().director().responses().learnt()).isEqualTo(learnt + 1);
    }

    @Test
    void aFollowUpSentTheMomentAStreamAnnouncesItsResponseGoesToThatPod() throws Exception {
        // long enough (2,000 tokens at the sim's 20 ms a step) to be under way whatever the follow-up takes
        String body = "{\"model\":\"" + MODEL + "\",\"input\":\"Tell a very long story\",\"max_output_tokens\":2000,"
                + "\"ignore_eos\":true,\"stream\":true}";
        long pinned = cluster.router().director().responses().pinned();
        HttpResponse<InputStream> res = cluster.http().postStreaming(cluster.url("/v1/responses"), body);
        assertThat(res.statusCode()).isEqualTo(200);
        String pod = pod(res);
        try (BufferedReader r = new BufferedReader(new InputStreamReader(res.body(), StandardCharsets.UTF_8))) {
            String id = null;
            for (String line; id == null && (line = r.readLine()) != null; ) {
                if (line.startsWith("data: ") && line.contains("\"response.created\"")) {
                    id = JSON.readTree(line.substring(6)).path("response").path("id").asText();
                }
            }
            assertThat(id).startsWith("resp_");
            // the client has only the stream's first event: the router knew the id before relaying it
            HttpResponse<String> next = post("/v1/responses", response("And then?", id, false));
            assertThat(pod(next)).isEqualTo(pod);
            assertThat(cluster.router().director().responses().pinned()).isEqualTo(pinned + 1);
            // the pod stores a response once it is complete, as vLLM does: until then it says 404 itself
            assertThat(next.statusCode()).isEqualTo(404);
        }
    }

    @Test
    void embeddingsAreForwardedAndAnsweredByThePod() {
        HttpResponse<String> res = post("/v1/embeddings", "{\"model\":\"" + MODEL + "\",\"input\":[\"one\",\"two\"]}");
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        assertThat(res.headers().firstValue("x-gateway-destination-endpoint")).isPresent();
        JsonNode body = json(res);
        assertThat(body.path("id").asText()).startsWith("embd-");
        assertThat(body.path("data")).hasSize(2);
        assertThat(body.path("usage").path("completion_tokens").asInt()).isZero();
    }

    @Test
    void vllmsOwnPathsAreForwardedByModelOrToAnyPod() {
        HttpResponse<String> withModel = post("/tokenize", "{\"model\":\"" + MODEL + "\",\"prompt\":\"Hello world\"}");
        assertThat(withModel.statusCode()).as(withModel.body()).isEqualTo(200);
        assertThat(json(withModel).path("count").asInt()).isPositive();
        assertThat(pod(withModel)).startsWith("pod-");
        HttpResponse<String> without = post("/tokenize", "{\"prompt\":\"Hello world\"}");
        assertThat(without.statusCode()).as(without.body()).isEqualTo(200);
        assertThat(json(without).path("tokens")).isEqualTo(json(withModel).path("tokens"));
        HttpResponse<String> detok = post("/detokenize", "{\"tokens\":" + json(withModel).path("tokens") + "}");
        assertThat(json(detok).path("prompt").asText()).isEqualTo("Hello world");
    }

    @Test
    void aConversationNamingNoModelIsPlacedByItsItemsAndForwarded() {
        // longer than one prefix block (64 bytes): its items are hashed, with no model to start the chain
        String items = "{\"items\":[{\"type\":\"message\",\"role\":\"user\",\"content\":\"A conversation that "
                + "names no model, with items well over one block of sixty-four bytes\"}]}";
        HttpResponse<String> res = post("/v1/conversations", items);
        assertThat(res.statusCode()).as(res.body()).isNotEqualTo(500);
        assertThat(pod(res)).startsWith("pod-"); // forwarded (the sim keeps no conversations: its own 404)
    }

    @Test
    void aPathThePodsDoNotServeIsForwardedAndAnsweredByAPod() {
        HttpResponse<String> res = cluster.http().get(cluster.url("/v1/not/a/vllm/path"));
        assertThat(res.statusCode()).isEqualTo(404);
        assertThat(pod(res)).startsWith("pod-");
        assertThat(json(res).path("error").path("code").asInt()).isEqualTo(404);
    }

    @Test
    void aMultipartFormIsRoutedByItsModelFieldWithoutBeingReadAsJson() {
        String boundary = "b0undary";
        String form = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.wav\"\r\n"
                + "Content-Type: audio/wav\r\n\r\nRIFF\u0000\u0001{not json\r\n--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"model\"\r\n\r\n%s\r\n--" + boundary + "--\r\n";
        HttpResponse<String> unknown = multipart(form.formatted("no-such-model"), boundary);
        assertError(unknown, 404, "model");
        assertThat(unknown.headers().firstValue("x-homing-pod")).isEmpty(); // refused by the router
        HttpResponse<String> known = multipart(form.formatted(MODEL), boundary);
        assertThat(pod(known)).startsWith("pod-"); // forwarded (the sim serves no audio: its own 404)
    }

    private static HttpResponse<String> multipart(String body, String boundary) {
        return cluster.http().send(HttpRequest.newBuilder(URI.create(cluster.url("/v1/audio/transcriptions")))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.ISO_8859_1)).build());
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "unknown model | /v1/responses     | {\"model\":\"nope\",\"input\":\"x\"}              | 404 | model",
            "unknown model | /v1/embeddings    | {\"model\":\"nope\",\"input\":\"x\"}              | 404 | model",
            "unknown model | /tokenize         | {\"model\":\"nope\",\"prompt\":\"x\"}             | 404 | model",
            "unknown model | /v1/conversations | {\"model\":\"nope\",\"items\":[{\"type\":\"message\"}]} | 404 | model",
            "malformed     | /v1/responses     | {\"model\":                                       | 400 | ",
            "malformed     | /v1/embeddings    | {\"model\":\"x\",\"input\":                       | 400 | ",
            "malformed     | /tokenize         | {\"prompt\":                                      | 400 | ",
            "no input      | /v1/responses     | {\"model\":\"Qwen/Qwen2.5-0.5B-Instruct\"}         | 400 | input",
            "no input      | /v1/embeddings    | {\"model\":\"Qwen/Qwen2.5-0.5B-Instruct\"}         | 400 | input",
            "no items      | /v1/conversations | {\"items\":[]}                                    | 400 | items",
    })
    void mistakesAreRefusedInOpenAisShapeBeforeAnyPod(String why, String path, String body, int status,
                                                        String param) {
        HttpResponse<String> res = post(path, body);
        assertError(res, status, param);
        assertThat(res.headers().firstValue("x-homing-pod")).isEmpty();
    }

    @Test
    void perPodPathsAndWrongMethodsAreTheRoutersOwnErrors() {
        HttpResponse<String> lora = post("/v1/load_lora_adapter", "{\"lora_name\":\"a\",\"lora_path\":\"/x\"}");
        assertThat(lora.statusCode()).isEqualTo(404);
        assertThat(lora.headers().firstValue("x-homing-pod")).isEmpty();
        HttpResponse<String> get = cluster.http().get(cluster.url("/v1/responses"));
        assertError(get, 405, null);
    }
}
