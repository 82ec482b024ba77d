package dev.homing.sim.http;

import static dev.homing.sim.http.PodClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.sim.engine.CostModel;
import dev.homing.sim.engine.EngineConfig;
import dev.homing.sim.engine.Preset;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code /v1/embeddings} as vLLM answers it, each input one prefill and no decode. */
class EmbeddingsIT {

    private static final String MODEL = "Qwen/Qwen2.5-0.5B-Instruct";

    private SimPod pod;
    private PodClient http;

    @BeforeEach
    void start() {
        EngineConfig engine = Preset.CPU_QWEN2_5_0_5B.engine().withCost(CostModel.simple(0, 10_000, 2_000_000, 0));
        pod = SimPod.start(SimPodConfig.builder().engine(engine).model(MODEL).podName("pod-a").build());
        http = new PodClient(pod.baseUrl());
    }

    @AfterEach
    void stop() {
        pod.close();
    }

    private static double norm(JsonNode vector) {
        double s = 0;
        for (JsonNode x : vector) {
            s += x.asDouble() * x.asDouble();
        }
        return Math.sqrt(s);
    }

    @Test
    void eachInputGetsAUnitVectorAndUsageCountsOnlyItsPrompt() {
        JsonNode r = http.postJson("/v1/embeddings",
                "{\"model\":\"" + MODEL + "\",\"input\":[\"the first text\",\"a second, longer text\",\"the first text\"]}");
        assertThat(r.path("id").asText()).startsWith("embd-");
        assertThat(r.path("object").asText()).isEqualTo("list");
        assertThat(r.path("model").asText()).isEqualTo(MODEL);
        JsonNode data = r.path("data");
        assertThat(data).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(data.get(i).path("index").asInt()).isEqualTo(i);
            assertThat(data.get(i).path("object").asText()).isEqualTo("embedding");
            assertThat(data.get(i).path("embedding")).hasSize(EmbeddingsHandler.DIMENSIONS);
            assertThat(norm(data.get(i).path("embedding"))).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-4));
        }
        assertThat(data.get(0).path("embedding")).isEqualTo(data.get(2).path("embedding"));
        assertThat(data.get(0).path("embedding")).isNotEqualTo(data.get(1).path("embedding"));
        JsonNode usage = r.path("usage");
        assertThat(usage.path("completion_tokens").asInt()).isZero();
        assertThat(usage.path("total_tokens").asInt()).isEqualTo(usage.path("prompt_tokens").asInt()).isPositive();
        // three prefills, no decode
        assertThat(pod.stats().generationTokens()).isZero();
        assertThat(pod.stats().promptTokens()).isEqualTo(usage.path("prompt_tokens").asInt());
    }

    @Test
    void base64IsTheSameVectorAsLittleEndianFloats() {
        String input = ",\"input\":[1,2,3,4,5]}";
        JsonNode floats = http.postJson("/v1/embeddings", "{\"model\":\"" + MODEL + "\"" + input);
        JsonNode b64 = http.postJson("/v1/embeddings",
                "{\"model\":\"" + MODEL + "\",\"encoding_format\":\"base64\"" + input);
        ByteBuffer b = ByteBuffer.wrap(Base64.getDecoder().decode(b64.path("data").get(0).path("embedding").asText()))
                .order(ByteOrder.LITTLE_ENDIAN);
        JsonNode v = floats.path("data").get(0).path("embedding");
        assertThat(b.remaining()).isEqualTo(4 * EmbeddingsHandler.DIMENSIONS);
        for (int i = 0; i < v.size(); i++) {
            assertThat(b.getFloat()).isEqualTo((float) v.get(i).asDouble());
        }
        assertThat(floats.path("usage").path("prompt_tokens").asInt()).isEqualTo(5);
    }

    @Test
    void mistakesAreVllmsErrors() {
        assertError(http.post("/v1/embeddings", "{\"model\":\"nope\",\"input\":\"x\"}"), 404, "model");
        assertError(http.post("/v1/embeddings", "{\"model\":\"" + MODEL + "\"}"), 400, "input");
        assertError(http.post("/v1/embeddings", "{\"model\":\"" + MODEL + "\",\"input\":[]}"), 400, "input");
        assertError(http.post("/v1/embeddings", "{\"model\":\"" + MODEL + "\",\"input\":\"x\",\"dimensions\":8}"),
                400, null);
        assertError(http.post("/v1/embeddings", "{\"model\":\"" + MODEL + "\",\"input\":\"x\",\"encoding_format\":\"hex\"}"),
                400, "encoding_format");
        String tooLong = "word ".repeat(pod.config().engine().maxModelLen() + 10);
        assertError(http.post("/v1/embeddings", "{\"model\":\"" + MODEL + "\",\"input\":\"" + tooLong + "\"}"), 400,
                "input");
    }

    private static void assertError(HttpResponse<String> res, int status, String param) {
        assertThat(res.statusCode()).as(res.body()).isEqualTo(status);
        JsonNode e = json(res.body()).get("error");
        assertThat(e.get("code").asInt()).isEqualTo(status);
        if (param == null) {
            assertThat(e.get("param").isNull()).isTrue();
        } else {
            assertThat(e.get("param").asText()).isEqualTo(param);
        }
    }
}
