package dev.homing.bench.live;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.bench.workload.Prompt;
import dev.homing.bench.workload.WorkloadRequest;
import java.net.URI;
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
    void completionsOrChatUnderTheBaseWithOrWithoutV1() {
        assertThat(RequestBodies.endpoint(URI.create("http://h:8000"), TEXT))
                .isEqualTo(URI.create("http://h:8000/v1/completions"));
        assertThat(RequestBodies.endpoint(URI.create("http://h:8000/"), CHAT))
                .isEqualTo(URI.create("http://h:8000/v1/chat/completions"));
        assertThat(RequestBodies.endpoint(URI.create("https://h/api/v1/"), TEXT))
                .isEqualTo(URI.create("https://h/api/v1/completions"));
    }

    @Test
    void streamedWithUsageAndTheWorkloadsLimits() throws Exception {
        JsonNode b = JSON.readTree(RequestBodies.json(request(TEXT, true), false));
        assertThat(b.get("model").asText()).isEqualTo("m");
        assertThat(b.get("prompt").asText()).isEqualTo(" the of");
        assertThat(b.get("max_tokens").asInt()).isEqualTo(12);
        assertThat(b.get("ignore_eos").asBoolean()).isTrue();
        assertThat(b.get("stream").asBoolean()).isTrue();
        assertThat(b.at("/stream_options/include_usage").asBoolean()).isTrue();
        assertThat(JSON.readTree(RequestBodies.json(request(TEXT, false), false)).has("ignore_eos")).isFalse();
    }

    @Test
    void chatsSendMessagesAndIdTracesSendIds() throws Exception {
        JsonNode chat = JSON.readTree(RequestBodies.json(request(CHAT, false), false));
        assertThat(chat.has("prompt")).isFalse();
        assertThat(chat.get("messages").toString())
                .isEqualTo("[{\"role\":\"system\",\"content\":\"s\"},{\"role\":\"user\",\"content\":\"u\"}]");
        JsonNode ids = JSON.readTree(RequestBodies.json(request(TEXT, false), true));
        assertThat(ids.get("prompt").toString()).isEqualTo("[256,257]");
    }
}
