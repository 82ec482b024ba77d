package dev.homing.sim.http;

import dev.homing.protocol.openai.OpenAiError;
import dev.homing.protocol.openai.RequestFormatException;
import io.helidon.webserver.http.ServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Reads a request body whole, refusing one above the pod's limit with vLLM's 413. */
final class RequestBodies {

    private RequestBodies() {
    }

    static byte[] read(ServerRequest req, int limit) throws RequestFormatException {
        try (InputStream in = req.content().inputStream()) {
            byte[] body = in.readNBytes(limit + 1);
            if (body.length > limit) {
                throw new RequestFormatException(OpenAiError.payloadTooLarge(limit));
            }
            return body;
        } catch (IOException | UncheckedIOException e) {
            throw RequestFormatException.badRequest("The request body could not be read: " + e.getMessage(), null);
        }
    }
}
