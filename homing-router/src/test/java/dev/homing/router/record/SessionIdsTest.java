package dev.homing.router.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RequestParser;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionIdsTest {

    private static InferenceRequest request(ApiKind api, String body, Map<String, String> headers) throws Exception {
        return new InferenceRequest("r", RequestParser.parse(api, body.getBytes(StandardCharsets.UTF_8)), headers);
    }

    @Test
    void theHeaderComesFirstThenTheConversationThenTheUser() throws Exception {
        String both = """
                {"model":"m","input":"hi","user":"alice","conversation":"conv_1"}""";
        assertThat(SessionIds.of(request(ApiKind.RESPONSES, both, Map.of("x-session-id", " s-9 ")))).isEqualTo("s-9");
        assertThat(SessionIds.of(request(ApiKind.RESPONSES, both, Map.of()))).isEqualTo("conv_1");
        assertThat(SessionIds.of(request(ApiKind.RESPONSES, """
                {"model":"m","conversation":{"id":"conv_2","x":[1,{"id":"no"}]},"input":"hi"}""", Map.of())))
                .isEqualTo("conv_2");
        assertThat(SessionIds.of(request(ApiKind.CHAT_COMPLETIONS, """
                {"model":"m","messages":[{"role":"user","content":"hi","user":"inner"}],"user":"bob"}""", Map.of())))
                .isEqualTo("bob");
    }

    @Test
    void nothingElseNamesASession() throws Exception {
        // a nested "user", a number, an empty one, llm-d's pod token, a conversation outside the Responses API
        assertThat(SessionIds.of(request(ApiKind.CHAT_COMPLETIONS, """
                {"model":"m","messages":[{"role":"user","content":"hi","user":"inner"}]}""", Map.of()))).isNull();
        assertThat(SessionIds.of(request(ApiKind.COMPLETIONS, """
                {"model":"m","prompt":"hi","user":42}""", Map.of()))).isNull();
        assertThat(SessionIds.of(request(ApiKind.COMPLETIONS, """
                {"model":"m","prompt":"hi","user":"  "}""", Map.of("x-session-id", "")))).isNull();
        assertThat(SessionIds.of(request(ApiKind.COMPLETIONS, """
                {"model":"m","prompt":"hi"}""", Map.of("x-session-token", "bnMvcG9kLTA=")))).isNull();
        assertThat(SessionIds.of(request(ApiKind.COMPLETIONS, """
                {"model":"m","prompt":"hi","conversation":"c"}""", Map.of()))).isNull();
    }
}
