package dev.homing.protocol.openai;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MultipartFieldsTest {

    private static final String TYPE = "multipart/form-data; boundary=\"xyz\"";

    private static String form(String... parts) {
        StringBuilder b = new StringBuilder();
        for (String p : parts) {
            b.append("--xyz\r\n").append(p).append("\r\n");
        }
        return b.append("--xyz--\r\n").toString();
    }

    private static String field(String body, String contentType, String name) {
        return MultipartFields.field(body.getBytes(StandardCharsets.UTF_8), contentType, name);
    }

    @Test
    void findsAFieldWhereverItIs() {
        String first = form("Content-Disposition: form-data; name=\"model\"\r\n\r\nm1",
                "Content-Disposition: form-data; name=\"language\"\r\n\r\nen");
        String last = form("Content-Disposition: form-data; name=\"file\"; filename=\"x\"\r\n\r\n\u0000\u0001--xy",
                "content-disposition: form-data; NAME=model\r\n\r\nm2");
        assertThat(field(first, TYPE, "model")).isEqualTo("m1");
        assertThat(field(last, TYPE, "model")).isEqualTo("m2");
        assertThat(field(first, TYPE, "language")).isEqualTo("en");
    }

    @Test
    void aFieldWhoseNameOnlyStartsTheSameIsAnother() {
        assertThat(field(form("Content-Disposition: form-data; name=\"model_id\"\r\n\r\nm"), TYPE, "model")).isNull();
    }

    @Test
    void noBoundaryNoFieldOrAValueTooLongNamesNothing() {
        String body = form("Content-Disposition: form-data; name=\"model\"\r\n\r\nm1");
        assertThat(field(body, "multipart/form-data", "model")).isNull();
        assertThat(field(body, TYPE, "prompt")).isNull();
        assertThat(field("garbage", TYPE, "model")).isNull();
        String huge = form("Content-Disposition: form-data; name=\"model\"\r\n\r\n" + "m".repeat(5000));
        assertThat(field(huge, TYPE, "model")).isNull();
    }
}
