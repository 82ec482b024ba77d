package dev.homing.router.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads {@code usage}, and the id of a Responses API response, from a response as its bytes pass through, without
 * holding the stream back; both data planes feed it the chunks they relay. For SSE it keeps only the last
 * {@code data:} line that mentions usage (vLLM sends it in the final chunk with {@code stream_options.include_usage};
 * the Responses API in its {@code response.completed} event, under {@code response.usage}) and the first
 * {@code response.created} event; for a JSON body it keeps the body up to a limit. Either is parsed once, when asked.
 * Both usage dialects are read, as llm-d's parser reads them: {@code prompt_tokens}/{@code completion_tokens} and
 * {@code input_tokens}/{@code output_tokens}, with {@code prompt_tokens_details} or {@code input_tokens_details}.
 */
public final class UsageScanner {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] USAGE = "\"usage\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NO_USAGE = "\"usage\":null".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CREATED = "\"response.created\"".getBytes(StandardCharsets.US_ASCII);
    private static final int MAX_JSON_BODY = 1 << 20;

    private final boolean sse;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(512);
    private byte[] lastUsageJson;
    private byte[] createdJson;
    private boolean overflow;
    private JsonNode parsed;

    /** @param sse whether the response is a {@code text/event-stream} */
    public UsageScanner(boolean sse) {
        this.sse = sse;
    }

    /** The next bytes of the response body, as relayed. */
    public void accept(byte[] chunk, int offset, int length) {
        parsed = null;
        if (!sse) {
            if (!overflow && line.size() + length <= MAX_JSON_BODY) {
                line.write(chunk, offset, length);
            } else {
                overflow = true;
            }
            return;
        }
        int start = offset;
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            if (chunk[i] == '\n') {
                if (line.size() == 0) {
                    line(chunk, start, i); // the common case: the whole line is in this chunk, read in place
                } else {
                    line.write(chunk, start, i - start);
                    byte[] l = line.toByteArray();
                    line.reset();
                    line(l, 0, l.length);
                }
                start = i + 1;
            }
        }
        if (start < end && line.size() < MAX_JSON_BODY) {
            line.write(chunk, start, end - start);
        }
    }

    /** One SSE line, {@code b[from, to)}; copied only when it is the usage line or the response's creation. */
    private void line(byte[] b, int from, int to) {
        if (to - from <= 6 || b[from] != 'd' || !startsWith(b, from, "data:")) {
            return;
        }
        if (contains(b, from, to, USAGE) && !contains(b, from, to, NO_USAGE)) {
            lastUsageJson = Arrays.copyOfRange(b, from + 5, to);
        } else if (createdJson == null && contains(b, from, to, CREATED)) {
            createdJson = Arrays.copyOfRange(b, from + 5, to);
        }
    }

    public Usage usage() {
        JsonNode root = root();
        if (root == null) {
            return Usage.UNKNOWN;
        }
        JsonNode usage = root.path("usage");
        if (!usage.isObject() && "response.completed".equals(root.path("type").asText())) {
            usage = root.path("response").path("usage");
        }
        if (!usage.isObject()) {
            return Usage.UNKNOWN;
        }
        long prompt = first(usage, "prompt_tokens", "input_tokens");
        JsonNode details = usage.has("prompt_tokens_details") ? usage.path("prompt_tokens_details")
                : usage.path("input_tokens_details");
        // vLLM leaves prompt_tokens_details out when nothing was cached (or the pod does not report it): 0
        long cached = details.path("cached_tokens").asLong(prompt >= 0 ? 0 : -1);
        return new Usage(prompt, first(usage, "completion_tokens", "output_tokens"), cached);
    }

    /**
     * The id of the Responses API response seen so far: of a JSON body whose {@code object} is {@code response}, or of
     * the {@code response.completed} (else {@code response.created}) event of a stream; null for any other response.
     * A data plane hands it to {@code Dispatch.answered} so that follow-ups naming it come back to the same pod.
     */
    public String responseId() {
        JsonNode root = root();
        if (root != null) {
            if (!sse && "response".equals(root.path("object").asText())) {
                return text(root.path("id"));
            }
            if (sse && "response.completed".equals(root.path("type").asText())) {
                return text(root.path("response").path("id"));
            }
        }
        if (sse && createdJson != null) {
            try {
                return text(JSON.readTree(createdJson).path("response").path("id"));
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }
        return null;
    }

    /** The usage line of a stream or the JSON body, parsed once; null when there is none or it is not JSON. */
    private JsonNode root() {
        if (parsed != null) {
            return parsed.isMissingNode() ? null : parsed;
        }
        byte[] json = sse ? lastUsageJson : overflow || line.size() == 0 ? null : line.toByteArray();
        try {
            parsed = json == null ? JSON.missingNode() : JSON.readTree(json);
        } catch (IOException | RuntimeException e) {
            parsed = JSON.missingNode();
        }
        if (parsed == null) {
            parsed = JSON.missingNode();
        }
        return parsed.isMissingNode() ? null : parsed;
    }

    private static long first(JsonNode usage, String name, String alternative) {
        JsonNode v = usage.has(name) ? usage.path(name) : usage.path(alternative);
        return v.asLong(-1);
    }

    private static String text(JsonNode v) {
        return v.isTextual() && !v.textValue().isEmpty() ? v.textValue() : null;
    }

    private static boolean startsWith(byte[] b, int from, String prefix) {
        for (int i = 0; i < prefix.length(); i++) {
            if (b[from + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(byte[] haystack, int from, int to, byte[] needle) {
        outer:
        for (int i = from; i + needle.length <= to; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
