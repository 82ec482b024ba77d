package dev.homing.protocol.openai;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.Locale;

/**
 * What a router reads of a body it forwards without knowing its API: the {@code model} it names, so that it goes to a
 * pod serving that model, and nothing else. A JSON body is read for its top-level {@code model}, {@code stream} and
 * {@code max_tokens} only (everything else skipped, not judged); a multipart form (vLLM's audio APIs) is never parsed
 * as JSON, only searched for a {@code model} field; any other body, or none, names no model.
 */
final class PassthroughFields {

    private PassthroughFields() {
    }

    static RoutingFields read(byte[] body, String contentType) throws RequestFormatException {
        if (body.length == 0) {
            return RoutingFields.passthrough(null, false, -1, body);
        }
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        if (type.startsWith("multipart/form-data")) {
            return RoutingFields.passthrough(MultipartFields.field(body, contentType, "model"), false, -1, body);
        }
        if (!type.isEmpty() && !type.contains("json")) {
            return RoutingFields.passthrough(null, false, -1, body);
        }
        try (JsonParser p = RequestParser.JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw RequestFormatException.badRequest("The request body must be a JSON object.", null);
            }
            String model = null;
            boolean stream = false;
            int maxTokens = -1;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                switch (field) {
                    case "model" -> model = v == JsonToken.VALUE_STRING && !p.getText().isBlank() ? p.getText() : null;
                    case "stream" -> stream = v == JsonToken.VALUE_TRUE;
                    case "max_tokens" -> maxTokens = v == JsonToken.VALUE_NUMBER_INT
                            && p.getNumberType() == JsonParser.NumberType.INT && p.getIntValue() > 0
                            ? p.getIntValue() : -1;
                    default -> p.skipChildren();
                }
            }
            if (p.nextToken() != null) {
                throw RequestFormatException.badRequest("The request body has data after its JSON object.", null);
            }
            return RoutingFields.passthrough(model, stream, maxTokens, body);
        } catch (JsonProcessingException e) {
            throw RequestParser.notJson(e);
        } catch (IOException e) {
            throw RequestFormatException.badRequest("The request body could not be read: " + e.getMessage(), null);
        }
    }
}
