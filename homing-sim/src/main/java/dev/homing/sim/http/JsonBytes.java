package dev.homing.sim.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * JSON written straight to bytes with Jackson's generator, for the bodies and SSE events the pod sends: the fields
 * are written in the order given (vLLM's), nothing is built as a tree first. The generator can write a request's JSON
 * back as it came ({@code metadata}, {@code tools}).
 */
final class JsonBytes {

    private static final JsonFactory JSON = new JsonFactory(new ObjectMapper());

    /** What writes a value, or an object's fields. */
    interface Fields {
        void write(JsonGenerator g) throws IOException;
    }

    private JsonBytes() {
    }

    /** {@code {fields}}. */
    static byte[] object(Fields fields) {
        return framed(null, fields, null);
    }

    /** {@code prefix}, then {@code {fields}}, then {@code suffix} (either null for none): an SSE event, say. */
    static byte[] framed(byte[] prefix, Fields fields, byte[] suffix) {
        return write(prefix, g -> {
            g.writeStartObject();
            fields.write(g);
            g.writeEndObject();
        }, suffix);
    }

    /** The value {@code value} writes, whole. */
    static byte[] value(Fields value) {
        return write(null, value, null);
    }

    private static byte[] write(byte[] prefix, Fields value, byte[] suffix) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        if (prefix != null) {
            out.writeBytes(prefix);
        }
        try (JsonGenerator g = JSON.createGenerator(out)) {
            value.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (suffix != null) {
            out.writeBytes(suffix);
        }
        return out.toByteArray();
    }
}
