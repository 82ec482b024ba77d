package dev.homing.router.http;

import dev.homing.protocol.openai.OpenAiError;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerResponse;

/** Answers with an OpenAI-shaped error, unless a response has already begun (then nothing more can be said). */
public final class ErrorResponses {

    private ErrorResponses() {
    }

    public static void send(ServerResponse res, OpenAiError error) {
        if (res.isSent()) {
            return;
        }
        res.status(error.status());
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(error.toJson());
    }
}
