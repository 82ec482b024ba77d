package dev.homing.protocol.openai;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.util.Arrays;

/**
 * Reads the routing fields of an OpenAI completions or chat-completions body in one streaming pass.
 * Prompt text is never decoded: its position in the body is recorded so the caller can hash the original bytes.
 * Fields the router does not need are skipped, not validated: the model server judges them.
 */
public final class RequestParser {

    private static final int[] NO_SPANS = new int[0];
    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNestingDepth(64)
                    .build())
            .build();

    private RequestParser() {
    }

    public static RoutingFields parse(ApiKind api, byte[] body) throws RequestFormatException {
        return parse(api, body, body.length);
    }

    /** Parses the first {@code length} bytes of {@code body}. */
    public static RoutingFields parse(ApiKind api, byte[] body, int length) throws RequestFormatException {
        try (JsonParser p = JSON.createParser(body, 0, length)) {
            return new Reading(api, body, p).read();
        } catch (JsonProcessingException e) {
            throw RequestFormatException.badRequest("The request body is not valid JSON: " + e.getOriginalMessage(), null);
        } catch (IOException e) {
            throw RequestFormatException.badRequest("The request body could not be read: " + e.getMessage(), null);
        }
    }

    /** Whether a JSON object body has this top-level field; false for anything that is not a JSON object. */
    public static boolean hasTopLevelField(byte[] body, String field) {
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                if (p.currentName().equals(field)) {
                    return true;
                }
                p.nextToken();
                p.skipChildren();
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /** The state of one pass. */
    private static final class Reading {
        private final ApiKind api;
        private final byte[] body;
        private final JsonParser p;
        private String model;
        private boolean stream;
        private boolean includeUsage;
        private int maxTokens = -1;
        private int maxCompletionTokens = -1;
        private int n = 1;
        private String cacheSalt;
        private PromptShape shape;
        private int[] messageSpans = NO_SPANS;
        private int promptOffset = -1;
        private int promptLength;
        private int tokenCount = -1;
        private boolean pendingStringEnd;

        Reading(ApiKind api, byte[] body, JsonParser p) {
            this.api = api;
            this.body = body;
            this.p = p;
        }

        RoutingFields read() throws IOException, RequestFormatException {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw RequestFormatException.badRequest("The request body must be a JSON object.", null);
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                endPendingString();
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "model" -> model = string(value, "model");
                    case "stream" -> stream = bool(value, "stream");
                    case "stream_options" -> streamOptions(value);
                    case "max_tokens" -> maxTokens = positiveInt(value, field, 1);
                    case "max_completion_tokens" -> maxCompletionTokens = positiveInt(value, field, 1);
                    case "n" -> n = positiveInt(value, "n", 1);
                    case "cache_salt" -> cacheSalt = string(value, "cache_salt");
                    case "prompt" -> {
                        if (api == ApiKind.COMPLETIONS) {
                            prompt(value);
                        } else {
                            p.skipChildren();
                        }
                    }
                    case "messages" -> {
                        if (api == ApiKind.CHAT_COMPLETIONS) {
                            messages(value);
                        } else {
                            p.skipChildren();
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            endPendingString();
            if (p.nextToken() != null) {
                throw RequestFormatException.badRequest("The request body has data after its JSON object.", null);
            }
            if (model == null) {
                throw RequestFormatException.badRequest("The 'model' field is required.", "model");
            }
            if (model.isBlank()) {
                throw RequestFormatException.badRequest("The 'model' field must not be empty.", "model");
            }
            if (shape == null) {
                String name = api == ApiKind.COMPLETIONS ? "prompt" : "messages";
                throw RequestFormatException.badRequest("The '" + name + "' field is required.", name);
            }
            // As vLLM: on chat, max_completion_tokens wins over the deprecated max_tokens; completions know only max_tokens.
            int limit = api == ApiKind.CHAT_COMPLETIONS && maxCompletionTokens > 0 ? maxCompletionTokens : maxTokens;
            return new RoutingFields(api, model, stream, includeUsage, limit, n, cacheSalt, shape,
                    body, promptOffset, promptLength, tokenCount, messageSpans);
        }

        private void streamOptions(JsonToken value) throws IOException, RequestFormatException {
            if (value == JsonToken.VALUE_NULL) {
                return;
            }
            if (value != JsonToken.START_OBJECT) {
                throw typeError("stream_options", "an object");
            }
            includeUsage = true; // vLLM: include_usage defaults to true once stream_options is present
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                if (field.equals("include_usage")) {
                    includeUsage = v != JsonToken.VALUE_NULL && bool(v, "stream_options.include_usage");
                } else {
                    p.skipChildren();
                }
            }
        }

        private void prompt(JsonToken value) throws IOException, RequestFormatException {
            int start = offset();
            if (value == JsonToken.VALUE_STRING) {
                shape = PromptShape.TEXT;
                promptOffset = start;
                pendingStringEnd = true; // found from the next token: Jackson skips the text, we need not scan it
                return;
            }
            if (value != JsonToken.START_ARRAY) {
                throw typeError("prompt", "a string, a list of strings, a list of token ids or a list of token-id lists");
            }
            JsonToken first = p.nextToken();
            if (first == JsonToken.END_ARRAY) {
                throw RequestFormatException.badRequest("The 'prompt' field must not be empty.", "prompt");
            }
            switch (first) {
                case VALUE_STRING -> {
                    shape = PromptShape.TEXT_LIST;
                    for (JsonToken t = first; t != JsonToken.END_ARRAY; t = p.nextToken()) {
                        if (t != JsonToken.VALUE_STRING) {
                            throw typeError("prompt", "a list of strings only");
                        }
                    }
                }
                case VALUE_NUMBER_INT -> {
                    shape = PromptShape.TOKENS;
                    tokenCount = tokenIds(first);
                }
                case START_ARRAY -> {
                    shape = PromptShape.TOKEN_LISTS;
                    int total = 0;
                    for (JsonToken t = first; t != JsonToken.END_ARRAY; t = p.nextToken()) {
                        if (t != JsonToken.START_ARRAY) {
                            throw typeError("prompt", "a list of token-id lists only");
                        }
                        JsonToken inner = p.nextToken();
                        if (inner == JsonToken.END_ARRAY) {
                            throw RequestFormatException.badRequest("A token-id list in 'prompt' must not be empty.", "prompt");
                        }
                        total += tokenIds(inner);
                    }
                    tokenCount = total;
                }
                default -> throw typeError("prompt",
                        "a string, a list of strings, a list of token ids or a list of token-id lists");
            }
            record(start, offset(p.currentLocation().getByteOffset()));
        }

        /** Counts token ids up to and including the closing bracket; every entry must be a non-negative integer. */
        private int tokenIds(JsonToken first) throws IOException, RequestFormatException {
            int count = 0;
            for (JsonToken t = first; t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                        || p.getLongValue() < 0 || p.getLongValue() > Integer.MAX_VALUE) {
                    throw typeError("prompt", "token ids as non-negative integers");
                }
                count++;
            }
            return count;
        }

        private void messages(JsonToken value) throws IOException, RequestFormatException {
            int start = offset();
            if (value != JsonToken.START_ARRAY) {
                throw typeError("messages", "a list of message objects");
            }
            int count = 0;
            int[] spans = new int[16];
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t != JsonToken.START_OBJECT) {
                    throw typeError("messages", "a list of message objects");
                }
                if (2 * count + 2 > spans.length) {
                    spans = Arrays.copyOf(spans, spans.length * 2);
                }
                spans[2 * count] = offset();
                boolean hasRole = false;
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    JsonToken v = p.nextToken();
                    if (field.equals("role")) {
                        if (v != JsonToken.VALUE_STRING) {
                            throw typeError("messages", "messages whose 'role' is a string");
                        }
                        hasRole = true;
                    } else if (field.equals("content")) {
                        if (v != JsonToken.VALUE_STRING && v != JsonToken.START_ARRAY && v != JsonToken.VALUE_NULL) {
                            throw typeError("messages", "messages whose 'content' is a string, a list of parts or null");
                        }
                        p.skipChildren();
                    } else {
                        p.skipChildren();
                    }
                }
                if (!hasRole) {
                    throw RequestFormatException.badRequest("Message " + count + " has no 'role'.", "messages");
                }
                spans[2 * count + 1] = offset(p.currentLocation().getByteOffset());
                count++;
            }
            if (count == 0) {
                throw RequestFormatException.badRequest("The 'messages' field must not be empty.", "messages");
            }
            shape = PromptShape.MESSAGES;
            messageSpans = Arrays.copyOf(spans, 2 * count);
            record(start, offset(p.currentLocation().getByteOffset()));
        }

        private void record(int start, int end) {
            promptOffset = start;
            promptLength = end - start;
        }

        private int offset() {
            return offset(p.currentTokenLocation().getByteOffset());
        }

        private static int offset(long location) {
            return (int) location;
        }

        /**
         * Ends a prompt string whose end was left open: Jackson has skipped its text to reach the next token, so the
         * closing quote is the last byte before that token, its comma and white space.
         */
        private void endPendingString() throws IOException {
            if (!pendingStringEnd) {
                return;
            }
            pendingStringEnd = false;
            int i = offset(p.currentTokenLocation().getByteOffset()) - 1;
            while (body[i] != '"') {
                i--; // white space and the comma between members
            }
            promptLength = i + 1 - promptOffset;
        }

        private String string(JsonToken value, String field) throws IOException, RequestFormatException {
            if (value == JsonToken.VALUE_NULL) {
                return null;
            }
            if (value != JsonToken.VALUE_STRING) {
                throw typeError(field, "a string");
            }
            return p.getText();
        }

        private boolean bool(JsonToken value, String field) throws RequestFormatException {
            if (value == JsonToken.VALUE_NULL) {
                return false;
            }
            if (value != JsonToken.VALUE_TRUE && value != JsonToken.VALUE_FALSE) {
                throw typeError(field, "a boolean");
            }
            return value == JsonToken.VALUE_TRUE;
        }

        private int positiveInt(JsonToken value, String field, int min) throws IOException, RequestFormatException {
            if (value == JsonToken.VALUE_NULL) {
                return field.equals("n") ? 1 : -1;
            }
            if (value != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                throw typeError(field, "an integer");
            }
            long v = p.getLongValue();
            if (v < min || v > Integer.MAX_VALUE) {
                throw RequestFormatException.badRequest("'" + field + "' must be at least " + min + ", got " + v + ".", field);
            }
            return (int) v;
        }

        private RequestFormatException typeError(String field, String expected) {
            return RequestFormatException.badRequest("The '" + field + "' field must be " + expected + ".", field);
        }
    }
}
