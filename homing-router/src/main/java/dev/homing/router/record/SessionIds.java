package dev.homing.router.record;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.protocol.openai.ApiKind;
import java.io.IOException;

/**
 * The session a request names, if any, in this order:
 * <ol>
 *   <li>the {@code x-session-id} header (what AIPerf-style clients and most gateways pass a session in);</li>
 *   <li>for the Responses API, its {@code conversation} (OpenAI's: a conversation id, or an object with {@code id}),
 *       which groups the turns of one conversation server-side;</li>
 *   <li>the body's top-level {@code user} (OpenAI's end-user identifier on completions, chat and responses).</li>
 * </ol>
 * Not a session: llm-d's {@code x-session-token} (it names the pod that served, not the conversation: every session
 * on one pod sends the same token) and a bare {@code previous_response_id} (the recorder does not see the id a
 * response was given, so it cannot chain turns; a client that wants its Responses turns grouped names a
 * {@code conversation} or a {@code user}). The value is never written: the recorder numbers it per file.
 *
 * <p>Reads the body with a streaming parser, top level only, on the writer thread: never on a request's path.
 */
final class SessionIds {

    static final String HEADER = "x-session-id";
    private static final JsonFactory JSON = new JsonFactory();

    private SessionIds() {
    }

    /** The session named, or null. */
    static String of(InferenceRequest request) {
        String h = request.header(HEADER);
        if (h != null && !h.isBlank()) {
            return h.strip();
        }
        byte[] body = request.fields().body();
        if (body == null || body.length == 0) {
            return null;
        }
        String user = null;
        String conversation = null;
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                if ("user".equals(name) && v == JsonToken.VALUE_STRING) {
                    user = p.getText();
                } else if ("conversation".equals(name) && request.fields().api() == ApiKind.RESPONSES) {
                    conversation = conversationId(p, v);
                } else {
                    p.skipChildren();
                }
            }
        } catch (IOException e) {
            return null; // the router parsed this body already; a body it could route but not read here names none
        }
        String id = conversation != null ? conversation : user;
        return id == null || id.isBlank() ? null : id;
    }

    private static String conversationId(JsonParser p, JsonToken v) throws IOException {
        if (v == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return null;
        }
        String id = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            if ("id".equals(name) && t == JsonToken.VALUE_STRING) {
                id = p.getText();
            } else {
                p.skipChildren();
            }
        }
        return id;
    }
}
