package dev.homing.sim.http;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.homing.sim.engine.FinishReason;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The JSON bodies and SSE chunks of vLLM's OpenAI server for one response: {@code id}, {@code created} and
 * {@code model} are fixed per response, field order and null fields follow vLLM's output.
 */
final class ResponseJson {

    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = "\n\n".getBytes(StandardCharsets.US_ASCII);
    static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII);

    private final boolean chat;
    private final String id;
    private final long created;
    private final String model;
    private final boolean promptTokensDetails;

    ResponseJson(boolean chat, String id, long created, String model, boolean promptTokensDetails) {
        this.chat = chat;
        this.id = id;
        this.created = created;
        this.model = model;
        this.promptTokensDetails = promptTokensDetails;
    }

    /** One streamed choice: {@code role} only on chat's first chunk; {@code finish} on the last. */
    byte[] chunk(int index, String role, String text, FinishReason finish) {
        return sse(g -> {
            header(g, chat ? "chat.completion.chunk" : "text_completion");
            g.writeArrayFieldStart("choices");
            g.writeStartObject();
            g.writeNumberField("index", index);
            if (chat) {
                g.writeObjectFieldStart("delta");
                if (role != null) {
                    g.writeStringField("role", role);
                }
                g.writeStringField("content", text);
                g.writeEndObject();
            } else {
                g.writeStringField("text", text);
            }
            g.writeNullField("logprobs");
            finish(g, finish);
            g.writeEndObject();
            g.writeEndArray();
        });
    }

    /** The {@code stream_options.include_usage} chunk: no choices, only usage. */
    byte[] usageChunk(Totals usage) {
        return sse(g -> {
            header(g, chat ? "chat.completion.chunk" : "text_completion");
            g.writeArrayFieldStart("choices");
            g.writeEndArray();
            usage(g, usage);
        });
    }

    /** One finished choice of a non-streaming response. */
    record Choice(String text, FinishReason finish) {
    }

    /**
     * What {@code usage} reports for a whole response: prompt tokens of every prompt (once each, whatever {@code n}),
     * completion tokens of every choice, and, as vLLM does, the cached tokens of the last prompt's result.
     */
    record Totals(int promptTokens, int completionTokens, int cachedTokens) {
    }

    /** A whole non-streaming response; choices in index order. */
    byte[] complete(List<Choice> choices, Totals usage) {
        return json(g -> {
            header(g, chat ? "chat.completion" : "text_completion");
            g.writeArrayFieldStart("choices");
            for (int i = 0; i < choices.size(); i++) {
                Choice c = choices.get(i);
                g.writeStartObject();
                g.writeNumberField("index", i);
                if (chat) {
                    g.writeObjectFieldStart("message");
                    g.writeStringField("role", "assistant");
                    g.writeStringField("content", c.text());
                    g.writeArrayFieldStart("tool_calls");
                    g.writeEndArray();
                    g.writeEndObject();
                } else {
                    g.writeStringField("text", c.text());
                }
                g.writeNullField("logprobs");
                finish(g, c.finish());
                g.writeEndObject();
            }
            g.writeEndArray();
            usage(g, usage);
        });
    }

    /**
     * vLLM's {@code GET /v1/models} body: a card per served name, then one per LoRA adapter with the adapter's path as
     * {@code root}, its base model as {@code parent} and no {@code max_model_len}.
     */
    static byte[] models(List<String> servedNames, String root, int maxModelLen, List<ServedModels.Adapter> loras,
            long created, RequestIds ids) {
        return json(g -> {
            g.writeStringField("object", "list");
            g.writeArrayFieldStart("data");
            for (String name : servedNames) {
                card(g, name, root, null, maxModelLen, created, ids);
            }
            for (ServedModels.Adapter a : loras) {
                card(g, a.name(), a.path(), a.parent(), -1, created, ids);
            }
            g.writeEndArray();
        });
    }

    private static void card(JsonGenerator g, String id, String root, String parent, int maxModelLen, long created,
            RequestIds ids) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", id);
        g.writeStringField("object", "model");
        g.writeNumberField("created", created);
        g.writeStringField("owned_by", "vllm");
        g.writeStringField("root", root);
        if (parent == null) {
            g.writeNullField("parent");
        } else {
            g.writeStringField("parent", parent);
        }
        if (maxModelLen < 0) {
            g.writeNullField("max_model_len");
        } else {
            g.writeNumberField("max_model_len", maxModelLen);
        }
        g.writeArrayFieldStart("permission");
        g.writeStartObject();
        g.writeStringField("id", ids.next("modelperm-"));
        g.writeStringField("object", "model_permission");
        g.writeNumberField("created", created);
        g.writeBooleanField("allow_create_engine", false);
        g.writeBooleanField("allow_sampling", true);
        g.writeBooleanField("allow_logprobs", true);
        g.writeBooleanField("allow_search_indices", false);
        g.writeBooleanField("allow_view", true);
        g.writeBooleanField("allow_fine_tuning", false);
        g.writeStringField("organization", "*");
        g.writeNullField("group");
        g.writeBooleanField("is_blocking", false);
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
    }

    private void header(JsonGenerator g, String object) throws IOException {
        g.writeStringField("id", id);
        g.writeStringField("object", object);
        g.writeNumberField("created", created);
        g.writeStringField("model", model);
    }

    private static void finish(JsonGenerator g, FinishReason finish) throws IOException {
        if (finish == null) {
            g.writeNullField("finish_reason");
        } else {
            g.writeStringField("finish_reason", finish.wireName());
        }
        g.writeNullField("stop_reason");
    }

    /** vLLM's {@code UsageInfo}; {@code prompt_tokens_details} only when enabled and some tokens were cached. */
    private void usage(JsonGenerator g, Totals usage) throws IOException {
        g.writeObjectFieldStart("usage");
        g.writeNumberField("prompt_tokens", usage.promptTokens());
        g.writeNumberField("total_tokens", usage.promptTokens() + usage.completionTokens());
        g.writeNumberField("completion_tokens", usage.completionTokens());
        if (promptTokensDetails && usage.cachedTokens() > 0) {
            g.writeObjectFieldStart("prompt_tokens_details");
            g.writeNumberField("cached_tokens", usage.cachedTokens());
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static byte[] sse(JsonBytes.Fields fields) {
        return JsonBytes.framed(DATA, fields, END);
    }

    private static byte[] json(JsonBytes.Fields fields) {
        return JsonBytes.object(fields);
    }
}
