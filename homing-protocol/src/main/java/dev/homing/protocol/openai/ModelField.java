package dev.homing.protocol.openai;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A JSON body's top-level {@code model} replaced in place: the bytes before and after its string value are kept as
 * they were, so a rewrite changes nothing else of what the client sent (llm-d re-marshals the whole body instead,
 * which reorders its keys). Only a rewritten request pays for this pass, which skips every other value unread.
 */
public final class ModelField {

    private static final JsonFactory JSON = new JsonFactory();

    private ModelField() {
    }

    /**
     * The body with its top-level {@code model} string set to {@code model}; null when the body is no JSON object
     * with such a string (a multipart form, say), which is then forwarded as it is.
     */
    public static byte[] replace(byte[] body, String model) {
        long span = locate(body);
        if (span < 0) {
            return null;
        }
        int start = (int) (span >>> 32);
        int end = (int) span;
        byte[] value = quoted(model);
        byte[] out = new byte[body.length - (end - start) + value.length];
        System.arraycopy(body, 0, out, 0, start);
        System.arraycopy(value, 0, out, start, value.length);
        System.arraycopy(body, end, out, start + value.length, body.length - end);
        return out;
    }

    /** (start &lt;&lt; 32 | end) of the top-level {@code model} string token, quotes included; -1 for none. */
    static long locate(byte[] body) {
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return -1;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                boolean model = p.currentName().equals("model");
                JsonToken v = p.nextToken();
                if (model) {
                    if (v != JsonToken.VALUE_STRING) {
                        return -1;
                    }
                    long start = p.currentTokenLocation().getByteOffset();
                    p.getText(); // reads the string to its closing quote, where the location now is
                    long end = p.currentLocation().getByteOffset();
                    return start << 32 | end;
                }
                p.skipChildren();
            }
            return -1;
        } catch (IOException e) {
            return -1;
        }
    }

    /** {@code s} as a JSON string: quotes, backslashes and control characters escaped. */
    static byte[] quoted(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString().getBytes(StandardCharsets.UTF_8);
    }
}
