package dev.homing.sim.http;

import dev.homing.sim.tokenizer.ChatMessage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Responses API responses a pod stored ({@code store} true), for {@code previous_response_id} and
 * {@code GET /v1/responses/{id}}: vLLM's in-memory {@code response_store} and {@code msg_store}. vLLM's never forgets
 * (its own warning calls it a memory leak); this one keeps {@code capacity} responses, the least recently used dropped
 * first, and none at capacity 0 (vLLM without {@code VLLM_ENABLE_RESPONSES_API_STORE}).
 */
final class ResponseStore {

    /**
     * One stored response.
     *
     * @param json the response object as answered
     * @param messages the chat messages its prompt was rendered from, instructions included (vLLM's msg_store)
     * @param output the text it answered, which a follow-up gets as an assistant message
     */
    record Stored(String id, byte[] json, List<ChatMessage> messages, String output) {
        Stored {
            messages = List.copyOf(messages);
        }
    }

    private final int capacity;
    private final LinkedHashMap<String, Stored> byId;

    ResponseStore(int capacity) {
        this.capacity = capacity;
        this.byId = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Stored> eldest) {
                return size() > ResponseStore.this.capacity;
            }
        };
    }

    /** Whether responses are stored at all. */
    boolean enabled() {
        return capacity > 0;
    }

    synchronized void put(Stored response) {
        if (capacity > 0) {
            byId.put(response.id(), response);
        }
    }

    synchronized Stored get(String id) {
        return byId.get(id);
    }

    synchronized int size() {
        return byId.size();
    }
}
