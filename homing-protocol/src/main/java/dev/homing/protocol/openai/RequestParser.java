package dev.homing.protocol.openai;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.util.Arrays;

/**
 * Reads the routing fields of an OpenAI request body in one streaming pass: completions, chat completions, responses,
 * conversations and embeddings; a passthrough body is read by {@link PassthroughFields}. Prompt text is never decoded:
 * its position in the body is recorded so the caller can hash the original bytes. Fields the router does not need
 * are skipped, not validated: the model server judges them.
 *
 * <p>What each kind needs, as llm-d's parser: completions a {@code prompt}, chat at least one message, responses an
 * {@code input}, conversations at least one of its {@code items}, embeddings an {@code input} (or, as vLLM also takes,
 * {@code messages}); every kind but conversations a {@code model}.
 */
public final class RequestParser {

    private static final int[] NO_SPANS = new int[0];
    static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNestingDepth(64)
                    .build())
            .build();

    private RequestParser() {
    }

    public static RoutingFields parse(ApiKind api, byte[] body) throws RequestFormatException {
        return parse(api, body, (String) null);
    }

    /**
     * Parses a body of any kind; {@code contentType} (null when unknown) matters only to a passthrough body, which may
     * be a multipart form.
     */
    public static RoutingFields parse(ApiKind api, byte[] body, String contentType) throws RequestFormatException {
        if (api == ApiKind.PASSTHROUGH) {
            return PassthroughFields.read(body, contentType);
        }
        try (JsonParser p = JSON.createParser(body)) {
            return new Reading(api, body, p).read();
        } catch (JsonProcessingException e) {
            throw notJson(e);
        } catch (IOException e) {
            throw RequestFormatException.badRequest("The request body could not be read: " + e.getMessage(), null);
        }
    }

    static RequestFormatException notJson(JsonProcessingException e) {
        return RequestFormatException.badRequest("The request body is not valid JSON: " + e.getOriginalMessage(), null);
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
        private int maxOutputTokens = -1;
        private int n = 1;
        private String cacheSalt;
        private String previousResponseId;
        private boolean store = true;
        private PromptShape shape;
        private int[] messageSpans = NO_SPANS;
        /** (start, end) of the prompt, messages, input or items; -1 while not seen. */
        private final int[] prompt = {-1, -1};
        private final int[] instructions = {-1, -1};
        private final int[] tools = {-1, -1};
        private int tokenCount = -1;
        /** A span whose value is a string: its end is found from the next token (see {@link #endPendingString}). */
        private int[] pending;

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
                field(field, p.nextToken());
            }
            endPendingString();
            if (p.nextToken() != null) {
                throw RequestFormatException.badRequest("The request body has data after its JSON object.", null);
            }
            if (model == null && api != ApiKind.CONVERSATIONS) {
                throw RequestFormatException.badRequest("The 'model' field is required.", "model");
            }
            if (model != null && model.isBlank()) {
                throw RequestFormatException.badRequest("The 'model' field must not be empty.", "model");
            }
            if (shape == null) {
                String name = switch (api) {
                    case COMPLETIONS -> "prompt";
                    case CHAT_COMPLETIONS -> "messages";
                    case CONVERSATIONS -> "items";
                    default -> "input";
                };
                throw RequestFormatException.badRequest("The '" + name + "' field is required.", name);
            }
            int promptLength = prompt[1] - prompt[0];
            return new RoutingFields(api, model, stream, includeUsage, limit(), api == ApiKind.RESPONSES ? 1 : n,
                    cacheSalt, shape, body, prompt[0], promptLength, tokenCount, messageSpans, prefixSpans(),
                    previousResponseId, api == ApiKind.RESPONSES && store);
        }

        private void field(String field, JsonToken value) throws IOException, RequestFormatException {
            boolean completions = api == ApiKind.COMPLETIONS || api == ApiKind.CHAT_COMPLETIONS;
            boolean responses = api == ApiKind.RESPONSES;
            switch (field) {
                case "model" -> model = string(value, "model");
                case "stream" -> {
                    stream = bool(value, "stream");
                    // the Responses API always reports usage, in its response.completed event
                    includeUsage |= responses && stream;
                }
                case "cache_salt" -> cacheSalt = string(value, "cache_salt");
                case "stream_options" -> {
                    if (completions) {
                        streamOptions(value);
                    } else {
                        p.skipChildren();
                    }
                }
                case "max_tokens" -> maxTokens = completions ? positiveInt(value, field) : skip(-1);
                case "max_completion_tokens" -> maxCompletionTokens = completions ? positiveInt(value, field) : skip(-1);
                case "max_output_tokens" -> maxOutputTokens = responses ? positiveInt(value, field) : skip(-1);
                case "n" -> n = completions ? Math.max(1, positiveInt(value, "n")) : skip(1);
                case "prompt" -> {
                    if (api == ApiKind.COMPLETIONS) {
                        prompt(value, "prompt");
                    } else {
                        p.skipChildren();
                    }
                }
                case "messages" -> {
                    if (api == ApiKind.CHAT_COMPLETIONS || (api == ApiKind.EMBEDDINGS && shape == null)) {
                        messages(value);
                    } else {
                        p.skipChildren();
                    }
                }
                case "input" -> {
                    if (responses) {
                        responseInput(value);
                    } else if (api == ApiKind.EMBEDDINGS) {
                        resetPrompt();
                        prompt(value, "input");
                    } else {
                        p.skipChildren();
                    }
                }
                case "instructions" -> {
                    if (responses && value != JsonToken.VALUE_NULL) {
                        if (value != JsonToken.VALUE_STRING) {
                            throw typeError("instructions", "a string");
                        }
                        startString(instructions);
                    } else {
                        p.skipChildren();
                    }
                }
                case "tools" -> {
                    if (responses && value != JsonToken.VALUE_NULL) {
                        if (value != JsonToken.START_ARRAY) {
                            throw typeError("tools", "a list of tools");
                        }
                        tools[0] = offset();
                        p.skipChildren();
                        tools[1] = end();
                    } else {
                        p.skipChildren();
                    }
                }
                case "items" -> {
                    if (api == ApiKind.CONVERSATIONS) {
                        items(value);
                    } else {
                        p.skipChildren();
                    }
                }
                case "previous_response_id" -> previousResponseId = responses ? string(value, field) : skip(null);
                case "store" -> store = !responses || value == JsonToken.VALUE_NULL ? skip(true) : bool(value, "store");
                default -> p.skipChildren();
            }
        }

        /** Skips the current value, answering {@code result}. */
        private <T> T skip(T result) throws IOException {
            p.skipChildren();
            return result;
        }

        /** The output limit as vLLM reads it: on chat, max_completion_tokens wins over the deprecated max_tokens. */
        private int limit() {
            return switch (api) {
                case CHAT_COMPLETIONS -> maxCompletionTokens > 0 ? maxCompletionTokens : maxTokens;
                case COMPLETIONS -> maxTokens;
                case RESPONSES -> maxOutputTokens;
                default -> -1;
            };
        }

        /** llm-d hashes responses as {@code [instructions, tools, input]}: the order vLLM renders them in. */
        private int[] prefixSpans() {
            if (!api.prefixAffinity()) {
                return NO_SPANS;
            }
            int[] out = new int[6];
            int k = 0;
            for (int[] span : api == ApiKind.RESPONSES ? new int[][] {instructions, tools, prompt} : new int[][] {prompt}) {
                if (span[0] >= 0 && span[1] > span[0]) {
                    out[k++] = span[0];
                    out[k++] = span[1];
                }
            }
            return Arrays.copyOf(out, k);
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

        /** An embeddings request may carry both {@code messages} and {@code input}: {@code input} wins. */
        private void resetPrompt() {
            if (pending == prompt) {
                pending = null;
            }
            prompt[0] = -1;
            prompt[1] = -1;
            shape = null;
            tokenCount = -1;
            messageSpans = NO_SPANS;
        }

        /** A completions {@code prompt}, or an embeddings {@code input}: the same four shapes. */
        private void prompt(JsonToken value, String field) throws IOException, RequestFormatException {
            int start = offset();
            if (value == JsonToken.VALUE_STRING) {
                shape = PromptShape.TEXT;
                startString(prompt);
                return;
            }
            if (value != JsonToken.START_ARRAY) {
                throw typeError(field, "a string, a list of strings, a list of token ids or a list of token-id lists");
            }
            JsonToken first = p.nextToken();
            if (first == JsonToken.END_ARRAY) {
                throw RequestFormatException.badRequest("The '" + field + "' field must not be empty.", field);
            }
            switch (first) {
                case VALUE_STRING -> {
                    shape = PromptShape.TEXT_LIST;
                    for (JsonToken t = first; t != JsonToken.END_ARRAY; t = p.nextToken()) {
                        if (t != JsonToken.VALUE_STRING) {
                            throw typeError(field, "a list of strings only");
                        }
                    }
                }
                case VALUE_NUMBER_INT -> {
                    shape = PromptShape.TOKENS;
                    tokenCount = tokenIds(first, field);
                }
                case START_ARRAY -> {
                    shape = PromptShape.TOKEN_LISTS;
                    int total = 0;
                    for (JsonToken t = first; t != JsonToken.END_ARRAY; t = p.nextToken()) {
                        if (t != JsonToken.START_ARRAY) {
                            throw typeError(field, "a list of token-id lists only");
                        }
                        JsonToken inner = p.nextToken();
                        if (inner == JsonToken.END_ARRAY) {
                            throw RequestFormatException.badRequest("A token-id list in '" + field
                                    + "' must not be empty.", field);
                        }
                        total += tokenIds(inner, field);
                    }
                    tokenCount = total;
                }
                default -> throw typeError(field,
                        "a string, a list of strings, a list of token ids or a list of token-id lists");
            }
            record(start, end());
        }

        /** Counts token ids up to and including the closing bracket; every entry must be a non-negative integer. */
        private int tokenIds(JsonToken first, String field) throws IOException, RequestFormatException {
            int count = 0;
            for (JsonToken t = first; t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                        || p.getLongValue() < 0 || p.getLongValue() > Integer.MAX_VALUE) {
                    throw typeError(field, "token ids as non-negative integers");
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
                spans[2 * count + 1] = end();
                count++;
            }
            if (count == 0) {
                throw RequestFormatException.badRequest("The 'messages' field must not be empty.", "messages");
            }
            shape = PromptShape.MESSAGES;
            messageSpans = Arrays.copyOf(spans, 2 * count);
            record(start, end());
        }

        /** The Responses API's {@code input}: a string, or a list of input items (judged by the model server). */
        private void responseInput(JsonToken value) throws IOException, RequestFormatException {
            shape = PromptShape.RESPONSE_INPUT;
            if (value == JsonToken.VALUE_STRING) {
                startString(prompt);
                return;
            }
            if (value != JsonToken.START_ARRAY) {
                throw typeError("input", "a string or a list of input items");
            }
            int start = offset();
            p.skipChildren();
            record(start, end());
        }

        /** A conversation's {@code items}: at least one, as llm-d requires. */
        private void items(JsonToken value) throws IOException, RequestFormatException {
            if (value != JsonToken.START_ARRAY) {
                throw typeError("items", "a list of items");
            }
            int start = offset();
            if (p.nextToken() == JsonToken.END_ARRAY) {
                throw RequestFormatException.badRequest("The 'items' field must not be empty.", "items");
            }
            p.skipChildren();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                p.skipChildren();
            }
            shape = PromptShape.CONVERSATION_ITEMS;
            record(start, end());
        }

        private void record(int start, int end) {
            prompt[0] = start;
            prompt[1] = end;
        }

        /**
         * Starts a span on the current string value and leaves its end open: Jackson skips the text when it reads the
         * next token, so the router never scans or decodes it itself.
         */
        private void startString(int[] span) {
            span[0] = offset();
            pending = span;
        }

        private int offset() {
            return (int) p.currentTokenLocation().getByteOffset();
        }

        /** Where the current token ends: after a closing bracket once {@code skipChildren} reached it. */
        private int end() {
            return (int) p.currentLocation().getByteOffset();
        }

        /**
         * Ends a string span left open: Jackson has skipped its text to reach the next token, so the closing quote is
         * the last byte before that token, its comma and white space.
         */
        private void endPendingString() {
            if (pending == null) {
                return;
            }
            int i = offset() - 1;
            while (body[i] != '"') {
                i--; // white space and the comma between members
            }
            pending[1] = i + 1;
            pending = null;
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

        /** An integer of at least 1, or -1 for null. */
        private int positiveInt(JsonToken value, String field) throws IOException, RequestFormatException {
            if (value == JsonToken.VALUE_NULL) {
                return -1;
            }
            if (value != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                throw typeError(field, "an integer");
            }
            long v = p.getLongValue();
            if (v < 1 || v > Integer.MAX_VALUE) {
                throw RequestFormatException.badRequest("'" + field + "' must be at least 1, got " + v + ".", field);
            }
            return (int) v;
        }

        private RequestFormatException typeError(String field, String expected) {
            return RequestFormatException.badRequest("The '" + field + "' field must be " + expected + ".", field);
        }
    }
}
