package dev.homing.sim.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RequestFormatException;
import dev.homing.sim.tokenizer.SimTokenizer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestReaderTest {

    private static final SimTokenizer TOK = SimTokenizer.builtin();
    private final RequestReader reader = new RequestReader(TOK);

    private CompletionRequest completion(String json) throws RequestFormatException {
        return reader.read(ApiKind.COMPLETIONS, json.getBytes(StandardCharsets.UTF_8));
    }

    private CompletionRequest chat(String json) throws RequestFormatException {
        return reader.read(ApiKind.CHAT_COMPLETIONS, json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void promptShapes() throws Exception {
        assertThat(completion("{\"model\":\"m\",\"prompt\":\"Hello world\"}").promptTokens())
                .containsExactly(TOK.encode("Hello world"));
        assertThat(completion("{\"model\":\"m\",\"prompt\":[\"first one\",\"second\"]}").prompts())
                .containsExactly(TOK.encode("first one"), TOK.encode("second"));
        assertThat(completion("{\"model\":\"m\",\"prompt\":[5,6,7]}").prompts()).containsExactly(new int[] {5, 6, 7});
        assertThat(completion("{\"model\":\"m\",\"prompt\":[[5,6],[7]]}").prompts())
                .containsExactly(new int[] {5, 6}, new int[] {7});
        assertThat(completion("{\"model\":\"m\",\"prompt\":[[5,6],[7]],\"n\":3}").n()).isEqualTo(3);
    }

    @Test
    void optionsAndDefaults() throws Exception {
        CompletionRequest plain = completion("{\"model\":\"m\",\"prompt\":\"x\"}");
        assertThat(plain.stream()).isFalse();
        assertThat(plain.includeUsage()).isFalse();
        assertThat(plain.maxTokens()).isEqualTo(-1);
        assertThat(plain.ignoreEos()).isFalse();
        assertThat(plain.cacheSalt()).isNull();

        CompletionRequest full = completion("""
                {"model":"m","prompt":"x","stream":true,"stream_options":{},"max_tokens":7,"ignore_eos":true,
                 "cache_salt":"s","temperature":0.2,"n":1,"stop":["\\n"]}""");
        assertThat(full.stream()).isTrue();
        assertThat(full.includeUsage()).isTrue(); // vLLM's default once stream_options is present
        assertThat(full.maxTokens()).isEqualTo(7);
        assertThat(full.ignoreEos()).isTrue();
        assertThat(full.cacheSalt()).isEqualTo("s");

        assertThat(chat("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"q\"}],\"max_tokens\":3,"
                + "\"max_completion_tokens\":5}").maxTokens()).isEqualTo(5);
    }

    @Test
    void chatUsesTheTemplateAndTextParts() throws Exception {
        CompletionRequest r = chat("""
                {"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a"},
                 {"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"b"}]}]}""");
        String rendered = TOK.decode(r.promptTokens());
        assertThat(rendered).endsWith("<|im_start|>user\na\nb<|im_end|>\n<|im_start|>assistant\n");
        assertThat(TOK.decode(r.echo(0, TOK))).isEqualTo("a\nb");

        CompletionRequest noPrompt = chat("""
                {"model":"m","add_generation_prompt":false,"messages":[{"role":"user","content":null}]}""");
        assertThat(TOK.decode(noPrompt.promptTokens())).endsWith("<|im_start|>user\n<|im_end|>\n");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "{\"model\":\"m\",\"prompt\":[]}                         | prompt",
            "{\"model\":\"m\",\"prompt\":\"\"}                       | prompt",
            "{\"model\":\"m\",\"prompt\":[1,\"a\"]}                  | prompt",
            "{\"model\":\"m\",\"prompt\":[[1],[]]}                   | prompt",
            "{\"model\":\"m\",\"prompt\":[-1]}                       | prompt",
            "{\"model\":\"m\",\"prompt\":7}                          | prompt",
            "{\"model\":\"\",\"prompt\":\"x\"}                       | model",
            "{\"model\":3,\"prompt\":\"x\"}                          | model",
            "{\"model\":\"m\",\"prompt\":\"x\",\"max_tokens\":0}      | max_tokens",
            "{\"model\":\"m\",\"prompt\":\"x\",\"max_tokens\":1.5}    | max_tokens",
            "{\"model\":\"m\",\"prompt\":\"x\",\"n\":0}               | n",
            "{\"model\":\"m\",\"prompt\":[\"a\",\"b\"],\"n\":513}     | n",
            "{\"model\":\"m\",\"prompt\":\"x\",\"stream_options\":{}} | stream_options",
            "{\"model\":\"m\",\"prompt\":\"x\",\"cache_salt\":\"\"}   | cache_salt",
            "{\"model\":\"m\",\"prompt\":\"x\",\"ignore_eos\":\"yes\"} | ignore_eos",
    })
    void badCompletionsNameTheField(String body, String param) {
        assertThatThrownBy(() -> completion(body))
                .isInstanceOfSatisfying(RequestFormatException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(400);
                    assertThat(e.error().param()).isEqualTo(param);
                });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "{\"model\":\"m\"}                                         | messages",
            "{\"model\":\"m\",\"messages\":[]}                         | messages",
            "{\"model\":\"m\",\"messages\":{}}                         | messages",
            "{\"model\":\"m\",\"messages\":[\"hi\"]}                   | messages",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":5}]} | messages",
    })
    void badChatsNameTheField(String body, String param) {
        assertThatThrownBy(() -> chat(body))
                .isInstanceOfSatisfying(RequestFormatException.class, e -> assertThat(e.error().param())
                        .isEqualTo(param));
    }
}
