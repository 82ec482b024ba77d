package dev.homing.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestBodiesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Prompt TEXT = Prompt.text(" the of", new int[] {256, 257});
    private static final Prompt CHAT = Prompt.chat(List.of(new Prompt.Message("system", "s"),
            new Prompt.Message("user", "u")), new int[] {1});

    private static WorkloadRequest request(Prompt p, boolean ignoreEos) {
        return new WorkloadRequest("r", 0, 0, "m", p, 12, ignoreEos, -1, -1, 0);
    }

    @Test
    void streamedWithUsageAndTheWorkloadsLimits() throws Exception {
        JsonNode b = JSON.readTree(RequestBodies.of(request(TEXT, true), "m", false));
        assertThat(b.get("model").asText()).isEqualTo("m");
        assertThat(b.get("prompt").asText()).isEqualTo(" the of");
        assertThat(b.get("max_tokens").asInt()).isEqualTo(12);
        assertThat(b.get("ignore_eos").asBoolean()).isTrue();
        assertThat(b.get("stream").asBoolean()).isTrue();
        assertThat(b.at("/stream_options/include_usage").asBoolean()).isTrue();
        assertThat(JSON.readTree(RequestBodies.of(request(TEXT, false), "m", false)).has("ignore_eos")).isFalse();
    }

    @Test
    void notStreamedAsksForTheWholeAnswerAndKeepsTheRest() throws Exception {
        JsonNode b = JSON.readTree(RequestBodies.of(request(CHAT, true), "m", false, false));
        assertThat(b.has("stream")).isFalse();
        assertThat(b.has("stream_options")).isFalse();
        assertThat(b.get("messages")).hasSize(2);
        assertThat(b.get("max_tokens").asInt()).isEqualTo(12);
        assertThat(b.get("ignore_eos").asBoolean()).isTrue();
    }

    @Test
    void chatsSendMessagesAndIdTracesSendIds() throws Exception {
        JsonNode chat = JSON.readTree(RequestBodies.of(request(CHAT, false), "m", false));
        assertThat(chat.has("prompt")).isFalse();
        assertThat(chat.get("messages").toString())
                .isEqualTo("[{\"role\":\"system\",\"content\":\"s\"},{\"role\":\"user\",\"content\":\"u\"}]");
        JsonNode ids = JSON.readTree(RequestBodies.of(request(TEXT, false), "m", true));
        assertThat(ids.get("prompt").toString()).isEqualTo("[256,257]");
    }

    @Test
    void textIsEscapedAsJson() throws Exception {
        String nasty = "say \"hi\"\\ \n\t\u0001 é 日本";
        Prompt p = Prompt.chat(List.of(new Prompt.Message("user", nasty)), new int[] {1});
        JsonNode chat = JSON.readTree(RequestBodies.of(request(p, false), "m", false));
        assertThat(chat.at("/messages/0/content").asText()).isEqualTo(nasty);
        JsonNode text = JSON.readTree(RequestBodies.of(request(Prompt.text(nasty, null), false), "m", false));
        assertThat(text.get("prompt").asText()).isEqualTo(nasty);
    }
}
