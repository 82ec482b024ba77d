package dev.homing.sim.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.protocol.openai.OpenAiError;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FailureInjectorTest {

    @ParameterizedTest
    @CsvSource({"400, BadRequestError", "401, AuthenticationError", "403, PermissionDeniedError",
        "404, NotFoundError", "422, UnprocessableEntityError", "429, RateLimitError", "500, InternalServerError",
        "503, InternalServerError", "418, APIConnectionError"})
    void theHeaderForcesItsStatusWithLlmdsTypeNames(int status, String type) {
        OpenAiError e = FailureInjector.forced(Integer.toString(status));
        assertThat(e.status()).isEqualTo(status);
        assertThat(e.type()).isEqualTo(type);
    }

    @Test
    void aHeaderThatIsNotAnErrorStatusIsABadRequest() {
        assertThat(FailureInjector.forced("abc").status()).isEqualTo(400);
        assertThat(FailureInjector.forced("204").status()).isEqualTo(400);
        assertThat(FailureInjector.forced("204").message()).contains("X-Return-Error");
    }

    @Test
    void theRateIsAPercentageAndTheDrawIsSeeded() {
        List<Boolean> a = draws(new FailureInjector(30, List.of(), "m", 9), 1000);
        List<Boolean> b = draws(new FailureInjector(30, List.of(), "m", 9), 1000);
        assertThat(a).isEqualTo(b);
        assertThat(a.stream().filter(x -> x).count()).isBetween(230L, 370L);
        assertThat(draws(new FailureInjector(0, List.of(), "m", 9), 100)).containsOnly(false);
        assertThat(draws(new FailureInjector(100, List.of(), "m", 9), 100)).containsOnly(true);
        assertThatThrownBy(() -> new FailureInjector(101, List.of(), "m", 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void typesCarryLlmdInferenceSimsCodesAndParams() {
        assertThat(FailureType.of("context_length").error("m")).isEqualTo(new OpenAiError(400, "BadRequestError",
                "This model's maximum context length is 4096 tokens. However, your messages resulted in 4500 tokens.",
                "messages"));
        assertThat(FailureType.of("server_error").error("m").status()).isEqualTo(503);
        assertThat(FailureType.of("invalid_api_key").error("m").type()).isEqualTo("AuthenticationError");
        assertThat(FailureType.of("invalid_request").error("m").param()).isEqualTo("model");
        assertThatThrownBy(() -> FailureType.of("oops")).hasMessageContaining("rate_limit");
        Optional<OpenAiError> only = new FailureInjector(100, List.of(FailureType.INVALID_API_KEY), "m", 1).draw();
        assertThat(only).map(OpenAiError::status).hasValue(401);
    }

    private static List<Boolean> draws(FailureInjector f, int n) {
        List<Boolean> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(f.draw().isPresent());
        }
        return out;
    }
}
