package dev.homing.protocol.openai;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ApiKindTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(nullValues = "none", value = {
            "/v1/completions,                        COMPLETIONS",
            "/v1/chat/completions,                   CHAT_COMPLETIONS",
            "/v1/projects/p/chat/completions,        CHAT_COMPLETIONS",
            "/v1/responses,                          RESPONSES",
            "/v1/responses?stream=true,              RESPONSES",
            "/v1/responses/,                         RESPONSES",
            "/v1/conversations,                      CONVERSATIONS",
            "/v1/embeddings,                         EMBEDDINGS",
            "/v1/chat/completions/render,            PASSTHROUGH",
            "/v1/responses/resp_1,                   PASSTHROUGH",
            "/v1/responses/resp_1/cancel,            PASSTHROUGH",
            "/v1/audio/transcriptions,               PASSTHROUGH",
            "/v1/score,                              PASSTHROUGH",
            "/v1/rerank,                             PASSTHROUGH",
            "/v2/rerank,                             PASSTHROUGH",
            "/v1/models,                             PASSTHROUGH",
            "/v1/anything/new,                       PASSTHROUGH",
            "/tokenize,                              PASSTHROUGH",
            "/detokenize,                            PASSTHROUGH",
            "/pooling,                               PASSTHROUGH",
            "/score,                                 PASSTHROUGH",
            "/rerank,                                PASSTHROUGH",
            "/classify,                              PASSTHROUGH",
            "/inference/v1/generate,                 PASSTHROUGH",
            "/v1/load_lora_adapter,                  none",
            "/v1/unload_lora_adapter,                none",
            "/health,                                none",
            "/metrics,                               none",
            "/reset_prefix_cache,                    none",
            "/,                                      none",
            "/nope,                                  none",
    })
    void everyRoutablePathHasAKind(String path, ApiKind kind) {
        assertThat(ApiKind.forPath(path)).isEqualTo(kind);
    }

    @Test
    void onlyPromptKindsAreRoutedOnTheirPrefixAndOnlyGeneratingKindsExpectOutput() {
        assertThat(ApiKind.RESPONSES.prefixAffinity()).isTrue();
        assertThat(ApiKind.CONVERSATIONS.prefixAffinity()).isTrue();
        assertThat(ApiKind.EMBEDDINGS.prefixAffinity()).isFalse();
        assertThat(ApiKind.PASSTHROUGH.prefixAffinity()).isFalse();
        assertThat(ApiKind.RESPONSES.generates()).isTrue();
        assertThat(ApiKind.EMBEDDINGS.generates()).isFalse();
        assertThat(ApiKind.CONVERSATIONS.generates()).isFalse();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(nullValues = "none", value = {
            "/v1/responses/resp_abc,             resp_abc",
            "/v1/responses/resp_abc/cancel,      resp_abc",
            "/v1/responses/resp_abc?x=1,         resp_abc",
            "/v1/responses,                      none",
            "/v1/responses/,                     none",
            "/v1/completions,                    none",
    })
    void aResponsePathNamesItsResponse(String path, String id) {
        assertThat(ApiKind.responseIdInPath(path)).isEqualTo(id);
    }
}
