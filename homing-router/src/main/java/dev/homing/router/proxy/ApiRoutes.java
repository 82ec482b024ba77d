package dev.homing.router.proxy;

import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.OpenAiError;
import dev.homing.router.http.ErrorResponses;
import io.helidon.http.Method;
import io.helidon.webserver.http.HttpRouting;

/**
 * The API port's routes: OpenAI's completions and chat completions, the models served, and a health check; any other
 * path or method gets an OpenAI-shaped error, as vLLM answers.
 */
public final class ApiRoutes {

    private final InferenceHandler inference;
    private final ModelsHandler models;

    public ApiRoutes(InferenceHandler inference, ModelsHandler models) {
        this.inference = inference;
        this.models = models;
    }

    public void register(HttpRouting.Builder r) {
        r.post(ApiKind.COMPLETIONS.path(), (req, res) -> inference.handle(ApiKind.COMPLETIONS, req, res))
                .post(ApiKind.CHAT_COMPLETIONS.path(), (req, res) -> inference.handle(ApiKind.CHAT_COMPLETIONS, req, res))
                .get("/v1/models", models::handle)
                .get("/health", (req, res) -> res.send())
                .any((req, res) -> {
                    String path = req.path().path();
                    boolean known = path.equals(ApiKind.COMPLETIONS.path()) || path.equals(ApiKind.CHAT_COMPLETIONS.path())
                            || path.equals("/v1/models");
                    Method m = req.prologue().method();
                    ErrorResponses.send(res, known ? OpenAiError.methodNotAllowed(m.text(), path)
                            : OpenAiError.notFound("Unknown path " + path, null));
                });
    }
}
