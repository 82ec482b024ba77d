package dev.homing.router.proxy;

import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.OpenAiError;
import dev.homing.router.http.ErrorResponses;
import io.helidon.http.Method;
import io.helidon.webserver.http.HttpRouting;

/**
 * The API port's routes. {@code POST} to each OpenAI API the router reads ({@link ApiKind}: completions, chat
 * completions, responses, conversations, embeddings, also under a provider's prefix); any method to every other
 * model-server path ({@link ApiKind#PASSTHROUGH}: forwarded by model, routed on load); the models the pool serves and
 * a health check, answered here. Anything else gets an OpenAI-shaped 404, and an API path with the wrong method 405,
 * as vLLM answers.
 */
public final class ApiRoutes {

    private final InferenceHandler inference;
    private final ModelsHandler models;

    public ApiRoutes(InferenceHandler inference, ModelsHandler models) {
        this.inference = inference;
        this.models = models;
    }

    public void register(HttpRouting.Builder r) {
        for (ApiKind kind : ApiKind.values()) {
            if (kind.path() != null) {
                r.post(kind.path(), (req, res) -> inference.handle(kind, req, res));
            }
        }
        r.get("/v1/models", models::handle)
                .get("/health", (req, res) -> res.send())
                .any((req, res) -> {
                    String path = req.path().path();
                    Method m = req.prologue().method();
                    ApiKind kind = ApiKind.forPath(path);
                    if (kind == ApiKind.PASSTHROUGH || (kind != null && m == Method.POST)) {
                        inference.handle(kind, req, res);
                    } else if (kind != null) {
                        ErrorResponses.send(res, OpenAiError.methodNotAllowed(m.text(), path));
                    } else {
                        ErrorResponses.send(res, OpenAiError.notFound("Unknown path " + path, null));
                    }
                });
    }
}
