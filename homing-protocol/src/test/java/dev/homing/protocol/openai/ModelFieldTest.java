package dev.homing.protocol.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ModelFieldTest {

    private static String replace(String body, String model) {
        byte[] out = ModelField.replace(body.getBytes(StandardCharsets.UTF_8), model);
        return out == null ? null : new String(out, StandardCharsets.UTF_8);
    }

    @Test
    void onlyTheTopLevelModelValueChanges() {
        String body = "{\"messages\":[{\"role\":\"user\",\"content\":\"the \\\"model\\\": x\",\"model\":\"inner\"}],"
                + "  \"model\" :  \"food-review\", \"stream\":true}";
        assertEquals("{\"messages\":[{\"role\":\"user\",\"content\":\"the \\\"model\\\": x\",\"model\":\"inner\"}],"
                + "  \"model\" :  \"food-review-v2-longer\", \"stream\":true}", replace(body, "food-review-v2-longer"));
    }

    @Test
    void shorterNamesAndMultiByteTextAround() {
        String body = "{\"prompt\":\"héllo ✓\",\"model\":\"a-very-long-model-name\",\"max_tokens\":5}";
        assertEquals("{\"prompt\":\"héllo ✓\",\"model\":\"m\",\"max_tokens\":5}", replace(body, "m"));
    }

    @Test
    void anEscapedNameIsReplacedWhole() {
        assertEquals("{\"model\":\"x\"}", replace("{\"model\":\"a\\\"b\\u0041\"}", "x"));
        assertEquals("{\"model\":\"q\\\"uote\\\\\"}", replace("{\"model\":\"x\"}", "q\"uote\\"));
    }

    @Test
    void noStringModelNoReplacement() {
        assertNull(replace("{\"prompt\":\"x\"}", "m"));
        assertNull(replace("{\"model\":5}", "m"));
        assertNull(replace("--boundary\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nm", "x"));
    }
}
