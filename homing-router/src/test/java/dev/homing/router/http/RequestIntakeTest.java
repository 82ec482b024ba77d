package dev.homing.router.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.protocol.openai.ApiKind;
import dev.homing.router.scrape.EndpointCatalog;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a data plane handed only headers and a body (the ext_proc server) gets from the intake. */
class RequestIntakeTest {

    private final RequestIntake intake = new RequestIntake(new EndpointCatalog(), 1 << 20);

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theApiIsChosenFromThePathHeadersAsLlmDReadsThem() {
        assertThat(RequestIntake.requestPath(Map.of(":path", "/v1/responses", "x-original-path", "/x")))
                .isEqualTo("/v1/responses");
        assertThat(RequestIntake.requestPath(Map.of("X-Original-Path", "/v1/embeddings"))).isEqualTo("/v1/embeddings");
        assertThat(RequestIntake.requestPath(Map.of("x-forwarded-path", "/tokenize"))).isEqualTo("/tokenize");
        assertThat(RequestIntake.requestPath(Map.of())).isNull();
    }

    @Test
    void aResponsePathPinsARequestWithoutABody() {
        Map<String, String> headers = Map.of(":path", "/v1/responses/resp_42", ":method", "GET");
        RequestIntake.Result r = intake.parse(ApiKind.forPath(headers.get(":path")), new byte[0], headers);
        assertThat(r.error()).isNull();
        assertThat(r.request().fields().api()).isEqualTo(ApiKind.PASSTHROUGH);
        assertThat(r.request().fields().previousResponseId()).isEqualTo("resp_42");
        assertThat(r.request().model()).isNull();
        // the caller's map is left alone (it may be immutable); the request has an id and lower-case names
        assertThat(headers).doesNotContainKey("x-request-id");
        assertThat(r.request().header("x-request-id")).isNotBlank();
    }

    @Test
    void aPassthroughPathThatGeneratesNothingExpectsNoOutputWhateverItsMaxTokens() {
        byte[] body = bytes("{\"model\":\"m\",\"prompt\":\"Hello\",\"max_tokens\":500}");
        for (String path : new String[] {"/tokenize", "/detokenize", "/v1/completions/render",
                "/v1/chat/completions/render/"}) {
            RequestIntake.Result r = intake.parse(ApiKind.forPath(path), body, Map.of(":path", path));
            assertThat(r.request().fields().api()).as(path).isEqualTo(ApiKind.PASSTHROUGH);
            assertThat(r.request().fields().maxTokens()).as(path).isEqualTo(-1);
        }
        // a path that may generate keeps the limit it names, which is then the output expected of it
        RequestIntake.Result generate = intake.parse(ApiKind.PASSTHROUGH, body,
                Map.of(":path", "/inference/v1/generate"));
        assertThat(generate.request().fields().maxTokens()).isEqualTo(500);
    }

    @Test
    void headerNamesAreLowerCasedAndTheContentTypeChoosesHowAPassthroughBodyIsRead() {
        RequestIntake.Result form = intake.parse(ApiKind.PASSTHROUGH,
                bytes("--b\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nm\r\n--b--\r\n"),
                Map.of("Content-Type", "multipart/form-data; boundary=b", "X-Request-Id", "r1"));
        assertThat(form.request().model()).isEqualTo("m");
        assertThat(form.request().requestId()).isEqualTo("r1");
        RequestIntake.Result bad = intake.parse(ApiKind.RESPONSES, bytes("{\"model\":"), Map.of());
        assertThat(bad.error().status()).isEqualTo(400);
    }
}
