package dev.homing.protocol.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Responses, Conversations and Embeddings APIs and passthrough bodies, read as llm-d's parser reads them. */
class ApiParsersTest {

    private static RoutingFields parse(ApiKind api, String json) throws RequestFormatException {
        return RequestParser.parse(api, json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aResponsesRequestIsRoutedOnInstructionsToolsAndInput() throws Exception {
        RoutingFields f = parse(ApiKind.RESPONSES, """
                {"input":[{"role":"user","content":"Hi"}],"model":"m","stream":true,"max_output_tokens":64,
                 "previous_response_id":"resp_1","tools":[{"type":"function","name":"f"}],"temperature":0.2,
                 "instructions":"Be \\"brief\\".","cache_salt":"s"}""");
        assertThat(f.api()).isEqualTo(ApiKind.RESPONSES);
        assertThat(f.model()).isEqualTo("m");
        assertThat(f.stream()).isTrue();
        assertThat(f.includeUsage()).isTrue(); // always in response.completed
        assertThat(f.maxTokens()).isEqualTo(64);
        assertThat(f.previousResponseId()).isEqualTo("resp_1");
        assertThat(f.store()).isTrue();
        assertThat(f.cacheSalt()).isEqualTo("s");
        assertThat(f.promptShape()).isEqualTo(PromptShape.RESPONSE_INPUT);
        assertThat(f.promptJson()).isEqualTo("[{\"role\":\"user\",\"content\":\"Hi\"}]");
        assertThat(f.prefixJson()).isEqualTo("\"Be \\\"brief\\\".\"" + "[{\"type\":\"function\",\"name\":\"f\"}]"
                + "[{\"role\":\"user\",\"content\":\"Hi\"}]");
        assertThat(f.estimatedPromptTokens()).isEqualTo(f.prefixLength() / 4);
    }

    @Test
    void aResponsesInputMayBeAStringAndStoreMayBeRefused() throws Exception {
        RoutingFields f = parse(ApiKind.RESPONSES, "{\"model\":\"m\",\"input\":\"Tell me\",\"store\":false}");
        assertThat(f.promptJson()).isEqualTo("\"Tell me\"");
        assertThat(f.prefixJson()).isEqualTo("\"Tell me\"");
        assertThat(f.store()).isFalse();
        assertThat(f.previousResponseId()).isNull();
        assertThat(f.includeUsage()).isFalse();
        assertThat(f.maxTokens()).isEqualTo(-1);
        assertThat(parse(ApiKind.RESPONSES, "{\"model\":\"m\",\"input\":\"x\",\"store\":null}").store()).isTrue();
    }

    @Test
    void aConversationIsRoutedOnItsItemsAndMayNameNoModel() throws Exception {
        RoutingFields f = parse(ApiKind.CONVERSATIONS,
                "{\"metadata\":{\"k\":\"v\"},\"items\":[{\"type\":\"message\",\"role\":\"user\",\"content\":\"Hi\"}]}");
        assertThat(f.model()).isNull();
        assertThat(f.promptShape()).isEqualTo(PromptShape.CONVERSATION_ITEMS);
        assertThat(f.prefixJson()).isEqualTo("[{\"type\":\"message\",\"role\":\"user\",\"content\":\"Hi\"}]");
        assertThat(f.store()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "text         | \"hello world\"         | TEXT        | -1",
            "texts        | [\"a\",\"b\"]           | TEXT_LIST   | -1",
            "tokens       | [1,2,3]                 | TOKENS      | 3",
            "token lists  | [[1,2],[3]]             | TOKEN_LISTS | 3",
    })
    void embeddingsReadTheirInputButRouteOnLoadOnly(String why, String input, PromptShape shape, int tokens)
            throws Exception {
        RoutingFields f = parse(ApiKind.EMBEDDINGS, "{\"model\":\"m\",\"input\":" + input + ",\"encoding_format\":\"float\"}");
        assertThat(f.promptShape()).isEqualTo(shape);
        assertThat(f.promptJson()).isEqualTo(input);
        assertThat(f.tokenCount()).isEqualTo(tokens);
        assertThat(f.prefixSpans()).isEmpty();
        assertThat(f.maxTokens()).isEqualTo(-1);
    }

    @Test
    void chatStyleEmbeddingsAreReadToo() throws Exception {
        RoutingFields f = parse(ApiKind.EMBEDDINGS, "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
        assertThat(f.promptShape()).isEqualTo(PromptShape.MESSAGES);
        assertThat(f.prefixSpans()).isEmpty();
        RoutingFields both = parse(ApiKind.EMBEDDINGS,
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"input\":\"y\"}");
        assertThat(both.promptShape()).isEqualTo(PromptShape.TEXT);
        assertThat(both.promptJson()).isEqualTo("\"y\"");
        assertThat(both.messageSpans()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "responses no model       | RESPONSES     | {\"input\":\"x\"}                                        | model",
            "responses no input       | RESPONSES     | {\"model\":\"m\"}                                        | input",
            "responses input a number | RESPONSES     | {\"model\":\"m\",\"input\":3}                            | input",
            "instructions a list      | RESPONSES     | {\"model\":\"m\",\"input\":\"x\",\"instructions\":[]}    | instructions",
            "tools an object          | RESPONSES     | {\"model\":\"m\",\"input\":\"x\",\"tools\":{}}           | tools",
            "previous id a number     | RESPONSES     | {\"model\":\"m\",\"input\":\"x\",\"previous_response_id\":1} | previous_response_id",
            "store a string           | RESPONSES     | {\"model\":\"m\",\"input\":\"x\",\"store\":\"no\"}       | store",
            "max_output_tokens zero   | RESPONSES     | {\"model\":\"m\",\"input\":\"x\",\"max_output_tokens\":0} | max_output_tokens",
            "conversation no items    | CONVERSATIONS | {\"metadata\":{}}                                        | items",
            "conversation empty items | CONVERSATIONS | {\"items\":[]}                                           | items",
            "conversation items a map | CONVERSATIONS | {\"items\":{}}                                           | items",
            "embeddings no model      | EMBEDDINGS    | {\"input\":\"x\"}                                        | model",
            "embeddings no input      | EMBEDDINGS    | {\"model\":\"m\"}                                        | input",
            "embeddings empty input   | EMBEDDINGS    | {\"model\":\"m\",\"input\":[]}                           | input",
            "embeddings input a map   | EMBEDDINGS    | {\"model\":\"m\",\"input\":{}}                           | input",
    })
    void badBodiesAreClientErrorsNamingTheField(String why, ApiKind api, String body, String param) {
        assertThatThrownBy(() -> parse(api, body)).isInstanceOfSatisfying(RequestFormatException.class, e -> {
            assertThat(e.error().status()).isEqualTo(400);
            assertThat(e.error().param()).isEqualTo(param);
        });
    }

    @Test
    void fieldsOfOtherApisAreNotJudged() throws Exception {
        // n and max_tokens mean nothing to the Responses API: left to the model server
        RoutingFields f = parse(ApiKind.RESPONSES, "{\"model\":\"m\",\"input\":\"x\",\"n\":\"two\",\"max_tokens\":0}");
        assertThat(f.n()).isEqualTo(1);
        assertThat(f.maxTokens()).isEqualTo(-1);
    }

    @Test
    void aPassthroughJsonBodyIsReadForItsModelOnly() throws Exception {
        RoutingFields f = RequestParser.parse(ApiKind.PASSTHROUGH,
                "{\"prompt\":\"x\",\"model\":\"m\",\"max_tokens\":9,\"extra\":[1,{\"a\":2}]}".getBytes(), "application/json");
        assertThat(f.api()).isEqualTo(ApiKind.PASSTHROUGH);
        assertThat(f.model()).isEqualTo("m");
        assertThat(f.maxTokens()).isEqualTo(9);
        assertThat(f.promptShape()).isEqualTo(PromptShape.NONE);
        assertThat(f.prefixSpans()).isEmpty();
        assertThat(f.estimatedPromptTokens()).isEqualTo(1);
        assertThat(RequestParser.parse(ApiKind.PASSTHROUGH, "{\"text\":\"x\"}".getBytes(), null).model()).isNull();
        assertThat(RequestParser.parse(ApiKind.PASSTHROUGH, new byte[0], null).model()).isNull();
        assertThat(RequestParser.parse(ApiKind.PASSTHROUGH, "a=b".getBytes(), "application/x-www-form-urlencoded")
                .model()).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "not JSON        | {\"model\":",
            "not an object   | [1,2]",
            "trailing data   | {\"model\":\"m\"} x",
    })
    void aPassthroughJsonBodyMustBeAJsonObject(String why, String body) {
        assertThatThrownBy(() -> RequestParser.parse(ApiKind.PASSTHROUGH, body.getBytes(), null))
                .isInstanceOfSatisfying(RequestFormatException.class,
                        e -> assertThat(e.error().status()).isEqualTo(400));
    }

    @Test
    void aMultipartBodyIsNeverParsedAsJson() throws Exception {
        String boundary = "----b0undary";
        String body = "--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"file\"; filename=\"a.wav\"\r\n"
                + "Content-Type: audio/wav\r\n\r\n"
                + "RIFF{\"model\":\"not-this\"}\r\n--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"model\"\r\n\r\n"
                + "whisper-large\r\n--" + boundary + "--\r\n";
        RoutingFields f = RequestParser.parse(ApiKind.PASSTHROUGH, body.getBytes(StandardCharsets.ISO_8859_1),
                "multipart/form-data; boundary=" + boundary);
        assertThat(f.model()).isEqualTo("whisper-large");
    }
}
