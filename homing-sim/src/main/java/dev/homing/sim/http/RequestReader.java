package dev.homing.sim.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RequestFormatException;
import dev.homing.sim.tokenizer.ChatMessage;
import dev.homing.sim.tokenizer.SimTokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Reads a completions or chat-completions body into a {@link CompletionRequest}, rejecting what vLLM rejects with a
 * 400 that names the offending field. Sampling fields (temperature, top_p, stop, ...) are accepted and ignored.
 *
 * <p>A batch prompt (a list of strings or of token lists) gives one prompt per entry; {@code n} choices are made for
 * each. Both are bounded so that one request cannot fill the engine's queue on its own.
 */
final class RequestReader {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Most choices (prompts × n) one request may ask for; the sim's own guard, vLLM has none. */
    static final int MAX_CHOICES = 1024;

    private final SimTokenizer tokenizer;

    RequestReader(SimTokenizer tokenizer) {
        this.tokenizer = tokenizer;
    }

    CompletionRequest read(ApiKind api, byte[] body) throws RequestFormatException {
        JsonNode root = object(body);
        String model = string(root, "model", true);
        if (model.isBlank()) {
            throw RequestFormatException.badRequest("The 'model' field must not be empty.", "model");
        }
        boolean stream = bool(root, "stream");
        boolean includeUsage = false;
        JsonNode options = root.get("stream_options");
        if (options != null && !options.isNull()) {
            if (!options.isObject()) {
                throw typeError("stream_options", "an object");
            }
            if (!stream) {
                throw RequestFormatException.badRequest("Stream options can only be defined when `stream=True`.",
                        "stream_options");
            }
            JsonNode include = options.get("include_usage");
            // vLLM's StreamOptions: include_usage defaults to true once stream_options is given.
            includeUsage = include == null || include.isNull() || boolValue(include, "stream_options.include_usage");
        }
        int n = Math.max(1, positiveInt(root, "n"));
        int maxTokens = positiveInt(root, "max_tokens");
        if (api == ApiKind.CHAT_COMPLETIONS) {
            int maxCompletion = positiveInt(root, "max_completion_tokens");
            if (maxCompletion > 0) {
                maxTokens = maxCompletion;
            }
        }
        boolean ignoreEos = bool(root, "ignore_eos");
        String cacheSalt = string(root, "cache_salt", false);
        if (cacheSalt != null && cacheSalt.isEmpty()) {
            throw RequestFormatException.badRequest("The 'cache_salt' field must not be empty.", "cache_salt");
        }
        List<int[]> prompts;
        String lastUserText = null;
        if (api == ApiKind.COMPLETIONS) {
            prompts = prompts(root.get("prompt"));
        } else {
            List<ChatMessage> messages = messages(root.get("messages"));
            prompts = List.of(chatPrompt(root, messages));
            lastUserText = lastUserContent(messages);
        }
        if ((long) prompts.size() * n > MAX_CHOICES) {
            throw RequestFormatException.badRequest("This simulator makes at most " + MAX_CHOICES
                    + " choices per request; got " + prompts.size() + " prompts × n = " + n + ".", "n");
        }
        return new CompletionRequest(api, model, prompts, lastUserText, stream, includeUsage, maxTokens, ignoreEos,
                cacheSalt, n, root);
    }

    /** Parses a body that must be a JSON object; 400 otherwise. */
    static JsonNode object(byte[] body) throws RequestFormatException {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw RequestFormatException.badRequest("The request body is not valid JSON: " + e.getOriginalMessage(),
                    null);
        } catch (IOException e) {
            throw RequestFormatException.badRequest("The request body could not be read: " + e.getMessage(), null);
        }
        if (root == null || !root.isObject()) {
            throw RequestFormatException.badRequest("The request body must be a JSON object.", null);
        }
        return root;
    }

    /** The chat template applied to {@code messages} and tokenized, honouring {@code add_generation_prompt}. */
    int[] chatPrompt(JsonNode root, List<ChatMessage> messages) throws RequestFormatException {
        boolean addGenerationPrompt = !root.has("add_generation_prompt") || bool(root, "add_generation_prompt");
        return tokenizer.encode(tokenizer.applyChatTemplate(messages, addGenerationPrompt));
    }

    /** Every prompt of a completions request: a string, strings, token ids, or lists of token ids. */
    List<int[]> prompts(JsonNode p) throws RequestFormatException {
        return prompts(p, "prompt");
    }

    /** Every prompt in {@code field} (a completion's {@code prompt}, an embeddings {@code input}): the same shapes. */
    List<int[]> prompts(JsonNode p, String field) throws RequestFormatException {
        if (p == null || p.isNull()) {
            throw RequestFormatException.badRequest("The '" + field + "' field is required.", field);
        }
        List<int[]> prompts = new ArrayList<>();
        if (p.isTextual()) {
            prompts.add(tokenizer.encode(p.textValue()));
        } else if (p.isArray() && !p.isEmpty()) {
            JsonNode first = p.get(0);
            if (first.isTextual()) {
                requireAll(p, JsonNode::isTextual, field, "a list of strings only");
                for (JsonNode text : p) {
                    prompts.add(tokenizer.encode(text.textValue()));
                }
            } else if (first.isIntegralNumber()) {
                prompts.add(tokenIds(p, field));
            } else if (first.isArray()) {
                requireAll(p, JsonNode::isArray, field, "a list of token-id lists only");
                for (JsonNode list : p) {
                    if (list.isEmpty()) {
                        throw RequestFormatException.badRequest("A token-id list in '" + field
                                + "' must not be empty.", field);
                    }
                    prompts.add(tokenIds(list, field));
                }
            } else {
                throw promptTypeError(field);
            }
        } else if (p.isArray()) {
            throw RequestFormatException.badRequest("The '" + field + "' field must not be empty.", field);
        } else {
            throw promptTypeError(field);
        }
        for (int[] tokens : prompts) {
            if (tokens.length == 0) {
                throw RequestFormatException.badRequest("The prompt must not be empty.", field);
            }
        }
        return prompts;
    }

    int[] tokenIds(JsonNode list) throws RequestFormatException {
        if (list.isEmpty()) {
            throw RequestFormatException.badRequest("A token-id list in 'prompt' must not be empty.", "prompt");
        }
        return tokenIds(list, "prompt");
    }

    /** Token ids in the vocabulary; 400 naming {@code field} otherwise. */
    int[] tokenIds(JsonNode list, String field) throws RequestFormatException {
        if (!list.isArray()) {
            throw typeError(field, "a list of token ids");
        }
        int[] ids = new int[list.size()];
        for (int i = 0; i < ids.length; i++) {
            JsonNode t = list.get(i);
            if (!t.isIntegralNumber() || !t.canConvertToLong() || t.longValue() < 0) {
                throw typeError(field, "token ids as non-negative integers");
            }
            if (t.longValue() >= tokenizer.vocabularySize()) {
                throw RequestFormatException.badRequest("Token id " + t.asText() + " is out of vocabulary", field);
            }
            ids[i] = t.intValue();
        }
        return ids;
    }

    static List<ChatMessage> messages(JsonNode m) throws RequestFormatException {
        if (m == null || m.isNull()) {
            throw RequestFormatException.badRequest("The 'messages' field is required.", "messages");
        }
        if (!m.isArray()) {
            throw typeError("messages", "a list of message objects");
        }
        if (m.isEmpty()) {
            throw RequestFormatException.badRequest("The 'messages' field must not be empty.", "messages");
        }
        List<ChatMessage> out = new ArrayList<>(m.size());
        for (int i = 0; i < m.size(); i++) {
            JsonNode msg = m.get(i);
            if (!msg.isObject()) {
                throw typeError("messages", "a list of message objects");
            }
            JsonNode role = msg.get("role");
            if (role == null || !role.isTextual()) {
                throw RequestFormatException.badRequest("Message " + i + " needs a 'role' string.", "messages");
            }
            out.add(new ChatMessage(role.textValue(), content(msg.get("content"))));
        }
        return out;
    }

    /** A string, or the text parts of a list joined by newlines (vLLM's "string" content format); null is empty. */
    static String content(JsonNode c) throws RequestFormatException {
        if (c == null || c.isNull()) {
            return "";
        }
        if (c.isTextual()) {
            return c.textValue();
        }
        if (!c.isArray()) {
            throw typeError("messages", "messages whose 'content' is a string, a list of parts or null");
        }
        List<String> texts = new ArrayList<>();
        for (JsonNode part : c) {
            if (part.isTextual()) {
                texts.add(part.textValue());
            } else if (part.isObject()) {
                JsonNode text = part.get("text");
                JsonNode type = part.get("type");
                if ((type == null || "text".equals(type.asText())) && text != null && text.isTextual()) {
                    texts.add(text.textValue());
                }
            } else {
                throw typeError("messages", "content parts as objects");
            }
        }
        return String.join("\n", texts);
    }

    private static String lastUserContent(List<ChatMessage> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role().equals("user")) {
                return messages.get(i).content();
            }
        }
        return messages.getLast().content();
    }

    private static void requireAll(JsonNode array, Predicate<JsonNode> ok, String field, String what)
            throws RequestFormatException {
        for (JsonNode e : array) {
            if (!ok.test(e)) {
                throw typeError(field, what);
            }
        }
    }

    static String string(JsonNode root, String field, boolean required) throws RequestFormatException {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw RequestFormatException.badRequest("The '" + field + "' field is required.", field);
            }
            return null;
        }
        if (!v.isTextual()) {
            throw typeError(field, "a string");
        }
        return v.textValue();
    }

    static boolean bool(JsonNode root, String field) throws RequestFormatException {
        JsonNode v = root.get(field);
        return v != null && !v.isNull() && boolValue(v, field);
    }

    private static boolean boolValue(JsonNode v, String field) throws RequestFormatException {
        if (!v.isBoolean()) {
            throw typeError(field, "a boolean");
        }
        return v.booleanValue();
    }

    /** A positive integer field, or -1 when absent or null. */
    static int positiveInt(JsonNode root, String field) throws RequestFormatException {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return -1;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw typeError(field, "an integer");
        }
        if (v.intValue() < 1) {
            throw RequestFormatException.badRequest("'" + field + "' must be at least 1, got " + v.intValue() + ".",
                    field);
        }
        return v.intValue();
    }

    private static RequestFormatException promptTypeError(String field) {
        return typeError(field, "a string, a list of strings, a list of token ids or a list of token-id lists");
    }

    static RequestFormatException typeError(String field, String expected) {
        return RequestFormatException.badRequest("The '" + field + "' field must be " + expected + ".", field);
    }
}
