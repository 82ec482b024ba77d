package dev.homing.sim.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.sim.engine.FinishReason;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The bodies and SSE events of vLLM's Responses API for one response: the {@code ResponsesResponse} object (vLLM's
 * field order; {@code status} {@code completed}, or {@code incomplete} with {@code incomplete_details} when
 * {@code max_output_tokens} cut it short) and, streamed, vLLM's events as {@code event: <type>} and
 * {@code data: <json>} lines, numbered by {@code sequence_number} from 0: {@code response.created},
 * {@code response.in_progress}, {@code response.output_item.added}, {@code response.content_part.added},
 * {@code response.output_text.delta} per piece of text, {@code response.output_text.done},
 * {@code response.content_part.done}, {@code response.output_item.done}, {@code response.completed} (with usage). Not
 * thread-safe: one writer per response.
 */
final class ResponsesJson {

    private static final byte[] END = "\n\n".getBytes(StandardCharsets.US_ASCII);

    /** What {@code usage} reports: vLLM's {@code ResponseUsage}. */
    record Totals(int inputTokens, int outputTokens, int cachedTokens) {
    }

    private final String id;
    private final String itemId;
    private final long createdAt;
    private final String model;
    private final ResponsesRequest request;
    private final int maxOutputTokens;
    private int sequence;

    ResponsesJson(String id, String itemId, long createdAt, String model, ResponsesRequest request,
            int maxOutputTokens) {
        this.id = id;
        this.itemId = itemId;
        this.createdAt = createdAt;
        this.model = model;
        this.request = request;
        this.maxOutputTokens = maxOutputTokens;
    }

    /** The finished response: its output message, its status and usage. */
    byte[] response(String text, FinishReason finish, Totals usage) {
        return json(g -> response(g, text, finish, usage));
    }

    byte[] created() {
        return event("response.created", g -> {
            g.writeFieldName("response");
            response(g, null, null, null);
        });
    }

    byte[] inProgress() {
        return event("response.in_progress", g -> {
            g.writeFieldName("response");
            response(g, null, null, null);
        });
    }

    byte[] itemAdded() {
        return event("response.output_item.added", g -> {
            g.writeFieldName("item");
            message(g, null, "in_progress");
            g.writeNumberField("output_index", 0);
        });
    }

    byte[] partAdded() {
        return event("response.content_part.added", g -> {
            g.writeNumberField("content_index", 0);
            g.writeStringField("item_id", itemId);
            g.writeNumberField("output_index", 0);
            g.writeFieldName("part");
            outputText(g, "", true);
        });
    }

    byte[] delta(String text) {
        return event("response.output_text.delta", g -> {
            g.writeNumberField("content_index", 0);
            g.writeStringField("delta", text);
            g.writeStringField("item_id", itemId);
            g.writeArrayFieldStart("logprobs");
            g.writeEndArray();
            g.writeNumberField("output_index", 0);
        });
    }

    byte[] textDone(String text) {
        return event("response.output_text.done", g -> {
            g.writeNumberField("content_index", 0);
            g.writeStringField("item_id", itemId);
            g.writeArrayFieldStart("logprobs");
            g.writeEndArray();
            g.writeNumberField("output_index", 0);
            g.writeStringField("text", text);
        });
    }

    byte[] partDone(String text) {
        return event("response.content_part.done", g -> {
            g.writeNumberField("content_index", 0);
            g.writeStringField("item_id", itemId);
            g.writeNumberField("output_index", 0);
            g.writeFieldName("part");
            outputText(g, text, false);
        });
    }

    byte[] itemDone(String text) {
        return event("response.output_item.done", g -> {
            g.writeFieldName("item");
            message(g, text, "completed");
            g.writeNumberField("output_index", 0);
        });
    }

    byte[] completed(String text, FinishReason finish, Totals usage) {
        return event("response.completed", g -> {
            g.writeFieldName("response");
            response(g, text, finish, usage);
        });
    }

    /** The response object; {@code text} null while in progress (no output, no usage yet). */
    private void response(JsonGenerator g, String text, FinishReason finish, Totals usage) throws IOException {
        boolean done = text != null;
        boolean incomplete = done && finish == FinishReason.LENGTH;
        g.writeStartObject();
        g.writeStringField("id", id);
        g.writeNumberField("created_at", createdAt);
        if (incomplete) {
            g.writeObjectFieldStart("incomplete_details");
            g.writeStringField("reason", "max_output_tokens");
            g.writeEndObject();
        } else {
            g.writeNullField("incomplete_details");
        }
        nullable(g, "instructions", request.instructions());
        node(g, "metadata", request.metadata());
        g.writeStringField("model", model);
        g.writeStringField("object", "response");
        g.writeArrayFieldStart("output");
        if (done) {
            message(g, text, "completed");
        }
        g.writeEndArray();
        g.writeBooleanField("parallel_tool_calls", true);
        g.writeNumberField("temperature", request.temperature());
        g.writeStringField("tool_choice", "auto");
        if (request.tools() == null) {
            g.writeArrayFieldStart("tools");
            g.writeEndArray();
        } else {
            node(g, "tools", request.tools());
        }
        g.writeNumberField("top_p", request.topP());
        g.writeBooleanField("background", false);
        g.writeNumberField("max_output_tokens", maxOutputTokens);
        g.writeNullField("max_tool_calls");
        nullable(g, "previous_response_id", request.previousResponseId());
        g.writeNullField("prompt");
        g.writeNullField("reasoning");
        g.writeStringField("service_tier", "auto");
        g.writeStringField("status", !done ? "in_progress" : incomplete ? "incomplete" : "completed");
        g.writeNullField("text");
        g.writeNullField("top_logprobs");
        g.writeStringField("truncation", "disabled");
        if (usage == null) {
            g.writeNullField("usage");
        } else {
            g.writeObjectFieldStart("usage");
            g.writeNumberField("input_tokens", usage.inputTokens());
            g.writeObjectFieldStart("input_tokens_details");
            g.writeNumberField("cached_tokens", usage.cachedTokens());
            g.writeEndObject();
            g.writeNumberField("output_tokens", usage.outputTokens());
            g.writeObjectFieldStart("output_tokens_details");
            g.writeNumberField("reasoning_tokens", 0);
            g.writeEndObject();
            g.writeNumberField("total_tokens", usage.inputTokens() + usage.outputTokens());
            g.writeEndObject();
        }
        g.writeNullField("user");
        g.writeEndObject();
    }

    /** The assistant's output message; {@code text} null for one just begun, with no content yet. */
    private void message(JsonGenerator g, String text, String status) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", itemId);
        g.writeArrayFieldStart("content");
        if (text != null) {
            outputText(g, text, false);
        }
        g.writeEndArray();
        g.writeStringField("role", "assistant");
        g.writeStringField("status", status);
        g.writeStringField("type", "message");
        g.writeEndObject();
    }

    private static void outputText(JsonGenerator g, String text, boolean withLogprobs) throws IOException {
        g.writeStartObject();
        g.writeArrayFieldStart("annotations");
        g.writeEndArray();
        g.writeStringField("text", text);
        g.writeStringField("type", "output_text");
        if (withLogprobs) {
            g.writeArrayFieldStart("logprobs");
            g.writeEndArray();
        } else {
            g.writeNullField("logprobs");
        }
        g.writeEndObject();
    }

    private static void nullable(JsonGenerator g, String field, String value) throws IOException {
        if (value == null) {
            g.writeNullField(field);
        } else {
            g.writeStringField(field, value);
        }
    }

    private static void node(JsonGenerator g, String field, JsonNode value) throws IOException {
        g.writeFieldName(field);
        if (value == null) {
            g.writeNull();
        } else {
            g.writeTree(value);
        }
    }

    /** {@code event: <type>} and its {@code data:} line, the event's fields then its sequence number and type. */
    private byte[] event(String type, JsonBytes.Fields fields) {
        int n = sequence++;
        return JsonBytes.framed(("event: " + type + "\ndata: ").getBytes(StandardCharsets.US_ASCII), g -> {
            fields.write(g);
            g.writeNumberField("sequence_number", n);
            g.writeStringField("type", type);
        }, END);
    }

    private static byte[] json(JsonBytes.Fields value) {
        return JsonBytes.value(value);
    }
}
