package dev.homing.sim.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.protocol.openai.RequestFormatException;
import dev.homing.sim.tokenizer.ChatMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of a Responses API request ({@code POST /v1/responses}) the simulated pod acts on, read as vLLM reads
 * them: {@code input} (a string, or input items: messages with text content, function calls and their outputs;
 * reasoning items are skipped) turned into chat messages, and {@code instructions} into a system message before them.
 *
 * @param input the new input as chat messages, in order
 * @param store whether the response is to be stored ({@code store}, true by default as in OpenAI's API)
 * @param maxOutputTokens {@code max_output_tokens}, or -1
 * @param ignoreEos the sim's (and vLLM's sampling) {@code ignore_eos}, for tests that need an exact length
 * @param tools the request's {@code tools}, echoed in the response; null when absent
 * @param metadata the request's {@code metadata}, echoed; null when absent
 */
record ResponsesRequest(
        String model,
        List<ChatMessage> input,
        String instructions,
        String previousResponseId,
        boolean store,
        boolean stream,
        boolean background,
        int maxOutputTokens,
        boolean ignoreEos,
        String cacheSalt,
        double temperature,
        double topP,
        JsonNode tools,
        JsonNode metadata) {

    ResponsesRequest {
        input = List.copyOf(input);
    }

    static ResponsesRequest read(byte[] body) throws RequestFormatException {
        JsonNode root = RequestReader.object(body);
        String model = RequestReader.string(root, "model", true);
        if (model.isBlank()) {
            throw RequestFormatException.badRequest("The 'model' field must not be empty.", "model");
        }
        JsonNode in = root.get("input");
        if (in == null || in.isNull()) {
            throw RequestFormatException.badRequest("The 'input' field is required.", "input");
        }
        JsonNode store = root.get("store");
        JsonNode tools = root.get("tools");
        if (tools != null && !tools.isNull() && !tools.isArray()) {
            throw RequestReader.typeError("tools", "a list of tools");
        }
        return new ResponsesRequest(model, input(in), RequestReader.string(root, "instructions", false),
                RequestReader.string(root, "previous_response_id", false),
                store == null || store.isNull() || booleanValue(store, "store"),
                RequestReader.bool(root, "stream"), RequestReader.bool(root, "background"),
                RequestReader.positiveInt(root, "max_output_tokens"), RequestReader.bool(root, "ignore_eos"),
                RequestReader.string(root, "cache_salt", false), number(root, "temperature", 1.0),
                number(root, "top_p", 1.0), tools == null || tools.isNull() ? null : tools,
                root.get("metadata") == null || root.get("metadata").isNull() ? null : root.get("metadata"));
    }

    /** The new input as chat messages: a string is one user message. */
    private static List<ChatMessage> input(JsonNode in) throws RequestFormatException {
        if (in.isTextual()) {
            return List.of(new ChatMessage("user", in.textValue()));
        }
        if (!in.isArray()) {
            throw RequestReader.typeError("input", "a string or a list of input items");
        }
        List<ChatMessage> out = new ArrayList<>(in.size());
        for (JsonNode item : in) {
            if (item.isTextual()) {
                out.add(new ChatMessage("user", item.textValue()));
                continue;
            }
            if (!item.isObject()) {
                throw RequestReader.typeError("input", "a list of input items");
            }
            String type = item.path("type").asText("message");
            switch (type) {
                case "message" -> {
                    JsonNode role = item.get("role");
                    if (role == null || !role.isTextual()) {
                        throw RequestFormatException.badRequest("An input message needs a 'role' string.", "input");
                    }
                    out.add(new ChatMessage(role.textValue(), text(item.get("content"))));
                }
                case "function_call" -> out.add(new ChatMessage("assistant", item.path("arguments").asText("")));
                case "function_call_output" -> out.add(new ChatMessage("tool", item.path("output").asText("")));
                case "reasoning" -> {
                    // vLLM leaves reasoning out of the prompt it renders
                }
                default -> throw RequestFormatException.badRequest("Unsupported input item type '" + type + "'.",
                        "input");
            }
        }
        return out;
    }

    /** A message's content: a string, or its text parts ({@code input_text}, {@code output_text}) joined by newlines. */
    private static String text(JsonNode content) throws RequestFormatException {
        if (content == null || content.isNull()) {
            return "";
        }
        if (content.isTextual()) {
            return content.textValue();
        }
        if (!content.isArray()) {
            throw RequestReader.typeError("input", "messages whose 'content' is a string or a list of parts");
        }
        List<String> texts = new ArrayList<>();
        for (JsonNode part : content) {
            JsonNode t = part.get("text");
            if (t != null && t.isTextual()) {
                texts.add(t.textValue());
            }
        }
        return String.join("\n", texts);
    }

    private static boolean booleanValue(JsonNode v, String field) throws RequestFormatException {
        if (!v.isBoolean()) {
            throw RequestReader.typeError(field, "a boolean");
        }
        return v.booleanValue();
    }

    private static double number(JsonNode root, String field, double absent) throws RequestFormatException {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return absent;
        }
        if (!v.isNumber()) {
            throw RequestReader.typeError(field, "a number");
        }
        return v.doubleValue();
    }
}
