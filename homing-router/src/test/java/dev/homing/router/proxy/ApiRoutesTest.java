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
}
