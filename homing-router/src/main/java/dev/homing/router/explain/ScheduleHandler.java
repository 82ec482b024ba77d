package dev.homing.router.explain;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.core.director.Decision;
import dev.homing.core.director.Director;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.OpenAiError;
import dev.homing.router.http.ErrorResponses;
import dev.homing.router.http.RequestIntake;
import dev.homing.router.scrape.EndpointCatalog;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * {@code POST /debug/schedule}: takes an OpenAI request body and answers where it would go and why, without
 * forwarding it and without changing any state (no load credited, nothing recorded in indexes). The API is the chat
 * API when the body has {@code messages}, else completions; {@code ?api=} overrides: {@code chat}, {@code completions},
 * {@code responses}, {@code conversations}, {@code embeddings}, or any path the API port forwards. The request is
 * read as the proxy reads it ({@link RequestIntake}), so both judge a request the same way; nothing here forwards.
 */
public final class ScheduleHandler {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Director director;
    private final EndpointCatalog catalog;
    private final RequestIntake intake;

    public ScheduleHandler(Director director, EndpointCatalog catalog, RequestIntake intake) {
        this.director = director;
        this.catalog = catalog;
        this.intake = intake;
    }

    public void handle(ServerRequest req, ServerResponse res) throws Exception {
        ApiKind api = null;
        if (req.query().contains("api")) {
            String name = req.query().get("api");
            api = name.startsWith("chat") ? ApiKind.CHAT_COMPLETIONS
                    : ApiKind.forPath(name.startsWith("/") ? name : "/v1/" + name);
            if (api == null) {
                ErrorResponses.send(res, OpenAiError.badRequest("Unknown api '" + name + "'.", "api"));
                return;
            }
        }
        RequestIntake.Result in = intake.read(api, req);
        if (in.error() != null) {
            ErrorResponses.send(res, in.error());
            return;
        }
        String model = in.request().targetModel();
        Decision decision;
        try {
            decision = director.explain(in.request(), e -> catalog.serves(e.name(), model));
        } catch (SchedulingException e) {
            ErrorResponses.send(res, OpenAiError.refused(e.status(), e.getMessage()));
            return;
        }
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(DecisionJson.full(decision)));
    }
}
