package dev.homing.sim.http;

import static dev.homing.protocol.fixtures.OpenAiErrors.assertError;
import static dev.homing.sim.http.PodClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.sim.engine.CostModel;
import dev.homing.sim.engine.EngineConfig;
import dev.homing.sim.engine.Preset;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Responses API as vLLM serves it: shapes, streamed events, stored responses and their follow-ups, errors. */
class ResponsesApiIT {

    private static final String MODEL = "Qwen/Qwen2.5-0.5B-Instruct";
    private static final long MS = 1_000_000L;

    private SimPod pod;
    private PodClient http;

    @AfterEach
    void stop() {
        if (pod != null) {
            pod.close();
        }
    }

    private void start(SimPodConfig.Builder b) {
        EngineConfig engine = Preset.CPU_QWEN2_5_0_5B.engine().withCost(CostModel.simple(0, 10_000, 2 * MS, 0));
        pod = SimPod.start(b.engine(engine).model(MODEL).podName("pod-a").seed(3).build());
        http = new PodClient(pod.baseUrl());
    }

    private void start() {
        start(SimPodConfig.builder());
    }

    private static String request(String extra) {
        return "{\"model\":\"" + MODEL + "\",\"input\":\"Tell me about routers\",\"max_output_tokens\":6,"
                + "\"ignore_eos\":true" + extra + "}";
    }

    @Test
    void aResponseHasVllmsShape() {
        start();
        JsonNode r = http.postJson("/v1/responses", request(",\"instructions\":\"Be brief.\""));
        assertThat(r.path("id").asText()).startsWith("resp_");
        assertThat(r.path("object").asText()).isEqualTo("response");
        assertThat(r.path("model").asText()).isEqualTo(MODEL);
        assertThat(r.path("instructions").asText()).isEqualTo("Be brief.");
        assertThat(r.path("previous_response_id").isNull()).isTrue();
        JsonNode message = r.path("output").get(0);
        assertThat(message.path("type").asText()).isEqualTo("message");
        assertThat(message.path("role").asText()).isEqualTo("assistant");
        assertThat(message.path("id").asText()).startsWith("msg_");
        assertThat(message.path("content").get(0).path("type").asText()).isEqualTo("output_text");
        assertThat(message.path("content").get(0).path("text").asText()).isNotEmpty();
        JsonNode usage = r.path("usage");
        assertThat(usage.path("output_tokens").asInt()).isEqualTo(6);
        assertThat(usage.path("input_tokens").asInt()).isPositive();
        assertThat(usage.path("total_tokens").asInt())
                .isEqualTo(usage.path("input_tokens").asInt() + usage.path("output_tokens").asInt());
        assertThat(usage.path("input_tokens_details").path("cached_tokens").isInt()).isTrue();
        // max_output_tokens cut it short
        assertThat(r.path("status").asText()).isEqualTo("incomplete");
        assertThat(r.path("incomplete_details").path("reason").asText()).isEqualTo("max_output_tokens");
    }

    @Test
    void aFollowUpSeesTheStoredConversationAndOnlyThisPodKnowsIt() {
        start();
        JsonNode first = http.postJson("/v1/responses", request(""));
        String id = first.path("id").asText();
        JsonNode second = http.postJson("/v1/responses", "{\"model\":\"" + MODEL + "\",\"input\":\"And then?\","
                + "\"previous_response_id\":\"" + id + "\",\"max_output_tokens\":3,\"ignore_eos\":true}");
        assertThat(second.path("previous_response_id").asText()).isEqualTo(id);
        // the prompt is the first exchange (its input and its output) plus the new input
        assertThat(second.path("usage").path("input_tokens").asInt())
                .isGreaterThan(first.path("usage").path("input_tokens").asInt() + 6);
        // ... and the first exchange's blocks are found in this pod's prefix cache
        assertThat(second.path("usage").path("input_tokens_details").path("cached_tokens").asInt()).isPositive();
        JsonNode retrieved = json(http.get("/v1/responses/" + id).body());
        assertThat(retrieved).isEqualTo(first);

        try (SimPod other = SimPod.start(SimPodConfig.builder().model(MODEL).podName("pod-b").build())) {
            HttpResponse<String> elsewhere = new PodClient(other.baseUrl()).post("/v1/responses",
                    "{\"model\":\"" + MODEL + "\",\"input\":\"x\",\"previous_response_id\":\"" + id + "\"}");
            assertError(elsewhere, 404, "response_id");
            assertThat(json(elsewhere.body()).path("error").path("message").asText())
                    .isEqualTo("Response with id '" + id + "' not found.");
        }
    }

    @Test
    void unknownInvalidAndUnstoredResponsesAreVllmsErrors() {
        start();
        assertError(http.post("/v1/responses", request(",\"previous_response_id\":\"resp_nope\"")), 404,
                "response_id");
        assertError(http.post("/v1/responses", request(",\"previous_response_id\":\"chatcmpl-1\"")), 400,
                "response_id");
        String unstored = http.postJson("/v1/responses", request(",\"store\":false")).path("id").asText();
        assertError(http.get("/v1/responses/" + unstored), 404, "response_id");
        String stored = http.postJson("/v1/responses", request("")).path("id").asText();
        assertError(http.post("/v1/responses/" + stored + "/cancel", ""), 400, "response_id");
        assertError(http.post("/v1/responses", "{\"model\":\"" + MODEL + "\"}"), 400, "input");
        assertError(http.post("/v1/responses", "{\"model\":\"nope\",\"input\":\"x\"}"), 404, "model");
        assertError(http.post("/v1/responses", "{\"model\":\"" + MODEL + "\",\"input\":\"x\",\"background\":true}"),
                400, "background");
        assertError(http.post("/v1/responses", "{\"model\":"), 400, null);
    }

    @Test
    void withoutAStoreNothingIsKeptAsVllmWithoutVllmEnableResponsesApiStore() {
        start(SimPodConfig.builder().responsesStoreCapacity(0));
        String id = http.postJson("/v1/responses", request("")).path("id").asText();
        assertError(http.get("/v1/responses/" + id), 404, "response_id");
        assertError(http.post("/v1/responses", request(",\"previous_response_id\":\"" + id + "\"")), 404,
                "response_id");
    }

    @Test
    void theStoreIsBounded() {
        start(SimPodConfig.builder().responsesStoreCapacity(2));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(http.postJson("/v1/responses", request("")).path("id").asText());
        }
        assertError(http.get("/v1/responses/" + ids.get(0)), 404, "response_id");
        assertThat(http.get("/v1/responses/" + ids.get(2)).statusCode()).isEqualTo(200);
    }

    @Test
    void aStreamedResponseSendsVllmsEventsInOrder() throws Exception {
        start();
        HttpResponse<String> res = http.post("/v1/responses", request(",\"stream\":true"));
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(res.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
        List<String> types = new ArrayList<>();
        List<JsonNode> data = new ArrayList<>();
        String[] lines = res.body().split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("event: ")) {
                types.add(lines[i].substring(7));
                assertThat(lines[i + 1]).startsWith("data: ");
                data.add(json(lines[i + 1].substring(6)));
            }
        }
        assertThat(res.body()).doesNotContain("[DONE]");
        assertThat(types.subList(0, 4)).containsExactly("response.created", "response.in_progress",
                "response.output_item.added", "response.content_part.added");
        assertThat(types.subList(types.size() - 4, types.size())).containsExactly("response.output_text.done",
                "response.content_part.done", "response.output_item.done", "response.completed");
        assertThat(types.subList(4, types.size() - 4)).isNotEmpty().allMatch("response.output_text.delta"::equals);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < data.size(); i++) {
            assertThat(data.get(i).path("sequence_number").asInt()).isEqualTo(i);
            assertThat(data.get(i).path("type").asText()).isEqualTo(types.get(i));
            if (types.get(i).equals("response.output_text.delta")) {
                text.append(data.get(i).path("delta").asText());
            }
        }
        JsonNode created = data.getFirst().path("response");
        assertThat(created.path("status").asText()).isEqualTo("in_progress");
        assertThat(created.path("usage").isNull()).isTrue();
        JsonNode completed = data.getLast().path("response");
        assertThat(completed.path("id").asText()).isEqualTo(created.path("id").asText());
        assertThat(completed.path("usage").path("output_tokens").asInt()).isEqualTo(6);
        assertThat(completed.path("output").get(0).path("content").get(0).path("text").asText())
                .isEqualTo(text.toString());
        // a streamed response is stored too
        assertThat(http.get("/v1/responses/" + created.path("id").asText()).statusCode()).isEqualTo(200);
    }
}
