package dev.homing.bench.live;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.homing.bench.workload.Prompt;
import dev.homing.bench.workload.WorkloadRequest;
import java.net.URI;

/**
 * The OpenAI request for a workload request: {@code /v1/completions} for a text prompt, {@code /v1/chat/completions}
 * for messages; always streamed with usage included, so the last event carries the token counts.
 * {@code ignore_eos} (a vLLM extension) is sent only when set.
 */
final class RequestBodies {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RequestBodies() {
    }

    /**
     * Where to send it: {@code base} may be a server root ({@code http://host:8000}) or end in {@code /v1}.
     */
    static URI endpoint(URI base, Prompt prompt) {
        String root = base.toString();
        while (root.endsWith("/")) {
            root = root.substring(0, root.length() - 1);
        }
        if (!root.endsWith("/v1")) {
            root += "/v1";
        }
        return URI.create(root + (prompt.isChat() ? "/chat/completions" : "/completions"));
    }

    /** @param tokenIds send a text prompt as its token ids (traces that give ids are the model's own tokens) */
    static byte[] json(WorkloadRequest r, boolean tokenIds) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", r.model());
        Prompt prompt = r.prompt();
        if (prompt.isChat()) {
            ArrayNode messages = body.putArray("messages");
            for (Prompt.Message m : prompt.messages()) {
                messages.addObject().put("role", m.role()).put("content", m.content());
            }
        } else if (tokenIds && prompt.tokens() != null) {
            ArrayNode ids = body.putArray("prompt");
            for (int id : prompt.tokens()) {
                ids.add(id);
            }
        } else {
            body.put("prompt", prompt.text());
        }
        body.put("max_tokens", r.maxTokens());
        if (r.ignoreEos()) {
            body.put("ignore_eos", true);
        }
        body.put("stream", true);
        body.putObject("stream_options").put("include_usage", true);
        try {
            return JSON.writeValueAsBytes(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot write a request body", e);
        }
    }
}
