package dev.homing.protocol.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestParserTest {

    private static RoutingFields completions(String json) throws RequestFormatException {
        return RequestParser.parse(ApiKind.COMPLETIONS, json.getBytes(StandardCharsets.UTF_8));
    }

    private static RoutingFields chat(String json) throws RequestFormatException {
        return RequestParser.parse(ApiKind.CHAT_COMPLETIONS, json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsRoutingFieldsAndLocatesThePromptWithoutDecodingIt() throws Exception {
        RoutingFields f = completions("""
                {"model":"Qwen/Qwen2.5-0.5B-Instruct","prompt":"say \\"hi\\"\\n","max_tokens":20,
                 "stream":true,"cache_salt":"s1","temperature":0.5,"extra":{"a":[1,2,{"b":null}]}}""");
        assertThat(f.model()).isEqualTo("Qwen/Qwen2.5-0.5B-Instruct");
        assertThat(f.stream()).isTrue();
        assertThat(f.includeUsage()).isFalse();
        assertThat(f.maxTokens()).isEqualTo(20);
        assertThat(f.cacheSalt()).isEqualTo("s1");
        assertThat(f.promptShape()).isEqualTo(PromptShape.TEXT);
        assertThat(f.promptJson()).isEqualTo("\"say \\\"hi\\\"\\n\"");
        assertThat(f.tokenCount()).isEqualTo(-1);
    }

    @Test
    void theOutputLimitIsReadAsVllmReadsItWhateverTheFieldOrder() throws Exception {
        String messages = "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]";
        assertThat(chat("{\"model\":\"m\"," + messages + ",\"max_completion_tokens\":100,\"max_tokens\":4000}")
                .maxTokens()).isEqualTo(100);
        assertThat(chat("{\"model\":\"m\"," + messages + ",\"max_tokens\":4000,\"max_completion_tokens\":100}")
                .maxTokens()).isEqualTo(100);
        assertThat(chat("{\"model\":\"m\"," + messages + ",\"max_completion_tokens\":100,\"max_tokens\":null}")
                .maxTokens()).isEqualTo(100);
        assertThat(chat("{\"model\":\"m\"," + messages + ",\"max_tokens\":30}").maxTokens()).isEqualTo(30);
        // completions have no max_completion_tokens
        assertThat(completions("{\"model\":\"m\",\"prompt\":\"x\",\"max_completion_tokens\":100,\"max_tokens\":7}")
                .maxTokens()).isEqualTo(7);
    }

    @Test
    void tokenPromptsAreCountedExactly() throws Exception {
        RoutingFields f = completions("{\"model\":\"m\",\"prompt\":[1,2,3,4]}");
        assertThat(f.promptShape()).isEqualTo(PromptShape.TOKENS);
        assertThat(f.tokenCount()).isEqualTo(4);
        assertThat(f.estimatedPromptTokens()).isEqualTo(4);
        assertThat(f.promptJson()).isEqualTo("[1,2,3,4]");

        RoutingFields lists = completions("{\"prompt\":[[1,2],[3]],\"model\":\"m\"}");
        assertThat(lists.promptShape()).isEqualTo(PromptShape.TOKEN_LISTS);
        assertThat(lists.tokenCount()).isEqualTo(3);
        assertThat(lists.promptJson()).isEqualTo("[[1,2],[3]]");

        RoutingFields texts = completions("{\"prompt\":[\"a\",\"b\"],\"model\":\"m\"}");
        assertThat(texts.promptShape()).isEqualTo(PromptShape.TEXT_LIST);
    }

    @Test
    void chatLocatesTheMessagesArray() throws Exception {
        String messages = "[{\"role\":\"system\",\"content\":\"be brief\"},{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}]";
        RoutingFields f = chat("{\"model\":\"m\",\"messages\":" + messages + ",\"stream\":true,\"stream_options\":{}}");
        assertThat(f.promptShape()).isEqualTo(PromptShape.MESSAGES);
        assertThat(f.promptJson()).isEqualTo(messages);
        assertThat(f.includeUsage()).as("include_usage defaults to true once stream_options is present").isTrue();
    }

    @Test
    void chatMessagesAreLocatedOneByOne() throws Exception {
        String first = "{\"role\":\"system\",\"content\":\"béé\"}";
        String second = "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],\"name\":{\"x\":1}}";
        String body = "{\"model\":\"m\", \"messages\": [ " + first + " ,\n" + second + "]}";
        RoutingFields f = chat(body);
        byte[] b = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int[] s = f.messageSpans();
        assertThat(s).hasSize(4);
        assertThat(new String(b, s[0], s[1] - s[0], java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(first);
        assertThat(new String(b, s[2], s[3] - s[2], java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(second);
        assertThat(completions("{\"model\":\"m\",\"prompt\":\"x\"}").messageSpans()).isEmpty();
    }

    @Test
    void multiByteTextKeepsByteOffsets() throws Exception {
        RoutingFields f = completions("{\"model\":\"m\",\"prompt\":\"héllo wörld ✓\"}");
        assertThat(f.promptJson()).isEqualTo("\"héllo wörld ✓\"");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "not json                  | {\"model\":                         | ",
            "array body                | [1,2]                               | ",
            "trailing data             | {\"model\":\"m\",\"prompt\":\"x\"} 7   | ",
            "missing model             | {\"prompt\":\"x\"}                    | model",
            "empty model               | {\"model\":\"\",\"prompt\":\"x\"}       | model",
            "model not a string        | {\"model\":3,\"prompt\":\"x\"}        | model",
            "missing prompt            | {\"model\":\"m\"}                     | prompt",
            "prompt a number           | {\"model\":\"m\",\"prompt\":5}        | prompt",
            "prompt empty list         | {\"model\":\"m\",\"prompt\":[]}       | prompt",
            "prompt mixed list         | {\"model\":\"m\",\"prompt\":[1,\"a\"]} | prompt",
            "negative token            | {\"model\":\"m\",\"prompt\":[1,-2]}   | prompt",
            "stream not a boolean      | {\"model\":\"m\",\"prompt\":\"x\",\"stream\":\"yes\"} | stream",
            "max_tokens zero           | {\"model\":\"m\",\"prompt\":\"x\",\"max_tokens\":0} | max_tokens",
            "max_tokens fractional     | {\"model\":\"m\",\"prompt\":\"x\",\"max_tokens\":1.5} | max_tokens",
            "cache_salt not a string   | {\"model\":\"m\",\"prompt\":\"x\",\"cache_salt\":1} | cache_salt",
    })
    void badCompletionBodiesAreClientErrorsNamingTheField(String why, String body, String param) {
        assertThatThrownBy(() -> completions(body))
                .isInstanceOfSatisfying(RequestFormatException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(400);
                    assertThat(e.error().type()).isEqualTo("BadRequestError");
                    assertThat(e.error().param()).isEqualTo(param);
                    assertThat(e.error().message()).isNotBlank();
                });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "missing messages     | {\"model\":\"m\"}",
            "messages an object   | {\"model\":\"m\",\"messages\":{}}",
            "messages empty       | {\"model\":\"m\",\"messages\":[]}",
            "message not object   | {\"model\":\"m\",\"messages\":[\"hi\"]}",
            "message without role | {\"model\":\"m\",\"messages\":[{\"content\":\"hi\"}]}",
            "content a number     | {\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":1}]}",
    })
    void badChatBodiesNameMessages(String why, String body) {
        assertThatThrownBy(() -> chat(body))
                .isInstanceOfSatisfying(RequestFormatException.class,
                        e -> assertThat(e.error().param()).isEqualTo("messages"));
    }

    @Test
    void findsTopLevelFieldsOnly() {
        assertThat(RequestParser.hasTopLevelField("{\"model\":\"m\",\"messages\":[]}".getBytes(), "messages")).isTrue();
        assertThat(RequestParser.hasTopLevelField("{\"x\":{\"messages\":1},\"prompt\":\"p\"}".getBytes(), "messages")).isFalse();
        assertThat(RequestParser.hasTopLevelField("[1]".getBytes(), "messages")).isFalse();
        assertThat(RequestParser.hasTopLevelField("{bad".getBytes(), "messages")).isFalse();
    }

    @Test
    void errorJsonHasTheOpenAiShape() {
        String json = new String(OpenAiError.modelNotFound("x\"y").toJson(), StandardCharsets.UTF_8);
        assertThat(json).isEqualTo(
                "{\"error\":{\"message\":\"The model `x\\\"y` does not exist.\",\"type\":\"NotFoundError\",\"param\":\"model\",\"code\":404}}");
    }
}
