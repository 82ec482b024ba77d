package dev.homing.router.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.protocol.openai.ApiKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ApiRoutesTest {

    @ParameterizedTest
    @CsvSource({
            "POST, /v1/completions, FORWARD, COMPLETIONS",
            "POST, /v1/chat/completions, FORWARD, CHAT_COMPLETIONS",
            "GET, /v1/completions, METHOD_NOT_ALLOWED, ",
            "GET, /v1/models, MODELS, ",
            "GET, /health, HEALTH, ",
            "POST, /nowhere, NOT_FOUND, ",
    })
    void routesAsVllmAnswers(String method, String path, ApiRoutes.Kind kind, ApiKind api) {
        ApiRoutes.Route r = ApiRoutes.route(method, path);
        assertThat(r.kind()).isEqualTo(kind);
        assertThat(r.api()).isEqualTo(api);
    }

    @ParameterizedTest
    @CsvSource({
            "/v1/completions, /v1/completions",
            "/v1/completions?x=1, /v1/completions",
            "http://router:8000/v1/models?a=b, /v1/models",
            "http://router:8000, /",
    })
    void pathOfATargetInEitherForm(String uri, String path) {
        assertThat(ApiRoutes.path(uri)).isEqualTo(path);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "/v1/completions              | /v1/completions",
            "/v1/%75nload_lora_adapter    | /v1/unload_lora_adapter",
            "/v1/../metrics               | /metrics",
            "/v1/./chat/./completions     | /v1/chat/completions",
            "/v1/chat/x/../completions    | /v1/chat/completions",
            "/../../v1/completions        | /v1/completions",
            "/v1/models/.                 | /v1/models/",
            "/v1/a%2Fb                    | /v1/a/b",
            "/v1/a+b%20c                  | /v1/a+b c",
            "/v1/%zz                      | NULL",
            "/v1/.hidden                  | /v1/.hidden",
    })
    void aPathIsJudgedAsTheServerWillReadIt(String raw, String normalized) {
        assertThat(ApiRoutes.normalize(raw)).isEqualTo(normalized);
    }
}
