package dev.homing.core.plugins.decider;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.homing.protocol.openai.PromptShape;
import dev.homing.protocol.openai.RoutingFields;
import java.io.IOException;
import java.util.Set;

/**
 * Whether a chat request carries non-text content: a content block of type {@code image_url}, {@code video_url} or
 * {@code input_audio} (vLLM's multimodal inputs), as llm-d detected it before it moved detection to its tokenizer.
 * Homing has no tokenizer, so it streams through the {@code messages} JSON in place (no copy, strings skipped).
 */
public final class MultimodalContent {

    private static final JsonFactory JSON = new JsonFactory();
    private static final Set<String> TYPES = Set.of("image_url", "video_url", "input_audio");

    private MultimodalContent() {
    }

    public static boolean present(RoutingFields fields) {
        if (fields.promptShape() != PromptShape.MESSAGES) {
            return false;
        }
        try (JsonParser p = JSON.createParser(fields.body(), fields.promptOffset(), fields.promptLength())) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.FIELD_NAME && p.currentName().equals("type")
                        && p.nextToken() == JsonToken.VALUE_STRING && TYPES.contains(p.getText())) {
                    return true;
                }
            }
        } catch (IOException e) {
            return false; // the parser already accepted the body; a slice it cannot read has no known content
        }
        return false;
    }
}
