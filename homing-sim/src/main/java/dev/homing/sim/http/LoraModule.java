package dev.homing.sim.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Objects;

/**
 * A LoRA adapter as vLLM's {@code --lora-modules} names it: {@code name=path}, or the JSON form
 * {@code {"name": ..., "path": ..., "base_model_name": ...}}. The sim loads no weights; the path is only reported.
 *
 * @param baseModelName the model it adapts, reported as {@code parent} by {@code /v1/models}; null for the pod's first
 *     served name
 */
public record LoraModule(String name, String path, String baseModelName) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public LoraModule {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(path, "path");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a LoRA module needs a name");
        }
    }

    /** Reads one {@code --lora-modules} value in either of vLLM's forms. */
    public static LoraModule parse(String text) {
        String s = text.strip();
        if (s.startsWith("{")) {
            JsonNode n;
            try {
                n = JSON.readTree(s);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("--lora-modules: not valid JSON: " + e.getOriginalMessage(), e);
            }
            String name = field(n, "name", true);
            String path = field(n, "path", true);
            return new LoraModule(name, path, field(n, "base_model_name", false));
        }
        int eq = s.indexOf('=');
        if (eq <= 0 || eq == s.length() - 1) {
            throw new IllegalArgumentException("--lora-modules takes name=path or a JSON object, got '" + text + "'");
        }
        return new LoraModule(s.substring(0, eq), s.substring(eq + 1), null);
    }

    private static String field(JsonNode n, String field, boolean required) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw new IllegalArgumentException("--lora-modules JSON needs \"" + field + "\"");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException("--lora-modules \"" + field + "\" must be a string");
        }
        return v.textValue();
    }
}
