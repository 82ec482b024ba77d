package dev.homing.router.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reads {@code usage}, and the id of a Responses API response, from a response as its bytes pass through, without
 * holding the stream back; both data planes feed it the chunks they relay.
 *
 * <p>For SSE it keeps only the last {@code data:} line that mentions usage (vLLM sends it in the final chunk with
 * {@code stream_options.include_usage}; the Responses API in its {@code response.completed} event, or
 * {@code response.incomplete} or {@code response.failed}, under {@code response.usage}); the response id is read from
 * the {@code response.created} event (or, failing that, a final one) the moment its line is whole. For a JSON body it
 * keeps a bounded head and a bounded tail, never the body: the id is the leading {@code "id"} of the top-level object
 * (vLLM writes it first), read from the first bytes; usage is read from the tail (vLLM writes it last, after the
 * choices or the vectors of an embeddings batch, whatever their size). A body whose usage is not within its last
 * {@value #TAIL} bytes (say, with {@code prompt_logprobs} after it) reports none.
 *
 * <p>Ids are those vLLM gives responses ({@code resp} first, as vLLM requires of a {@code previous_response_id}); the
 * listener hears the id once, from {@link #accept} as soon as the bytes carrying it have been given, so a data plane
 * can remember it before it relays them. Both usage dialects are read, as llm-d's parser reads them:
 * {@code prompt_tokens}/{@code completion_tokens} and {@code input_tokens}/{@code output_tokens}, with
 * {@code prompt_tokens_details} or {@code input_tokens_details}.
 */
public final class UsageScanner {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] USAGE = "\"usage\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NO_USAGE = "\"usage\":null".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] RESPONSE_EVENT = "\"response.".getBytes(StandardCharsets.US_ASCII);
    /** The Responses API events whose {@code response} carries the id and, but for the first, the usage. */
    private static final Set<String> RESPONSE_EVENTS = Set.of("response.created", "response.completed",
            "response.incomplete", "response.failed");
    private static final int MAX_LINE = 1 << 20;
    /** Enough for {@code {"id":"resp_} and 32 hex digits, with room for whitespace. */
    static final int HEAD = 512;
    /** vLLM's usage object is about 200 bytes; what follows it in a body (nulls, kv_transfer_params) little more. */
    static final int TAIL = 8 * 1024;

    private final boolean sse;
    private final Consumer<String> onResponseId;
    private String responseId;
    private JsonNode parsed;

    // SSE
    private final ByteArrayOutputStream line;
    private byte[] lastUsageJson;

    // JSON: the first HEAD bytes until the id is read or cannot be; the last TAIL bytes as a ring
    private byte[] head;
    private int headLength;
    private boolean headDone;
    private final byte[] tail;
    private long total;

    /** @param sse whether the response is a {@code text/event-stream} */
    public UsageScanner(boolean sse) {
        this(sse, null);
    }

    /**
     * @param sse          whether the response is a {@code text/event-stream}
     * @param onResponseId told the response's id once, as soon as it has passed (null: nobody)
     */
    public UsageScanner(boolean sse, Consumer<String> onResponseId) {
        this(sse, onResponseId, -1);
    }

    /**
     * @param bodyLength the body's declared length, -1 when unknown: a shorter body than the head and tail windows
     *                   gets windows of its size (a proxy scans every response; most are a few hundred bytes)
     */
    public UsageScanner(boolean sse, Consumer<String> onResponseId, long bodyLength) {
        this.sse = sse;
        this.onResponseId = onResponseId;
        this.line = sse ? new ByteArrayOutputStream(512) : null;
        int window = bodyLength > 0 && bodyLength < TAIL ? (int) bodyLength : TAIL;
        this.tail = sse ? null : new byte[window];
        this.head = sse ? null : new byte[Math.min(HEAD, window)];
    }

    /** The next bytes of the response body, as relayed. */
    public void accept(byte[] chunk, int offset, int length) {
        parsed = null;
        if (sse) {
            acceptSse(chunk, offset, length);
        } else {
            acceptJson(chunk, offset, length);
        }
    }

    private void acceptJson(byte[] chunk, int offset, int length) {
        if (!headDone) {
            int n = Math.min(length, head.length - headLength);
            System.arraycopy(chunk, offset, head, headLength, n);
            headLength += n;
            LeadingId leading = LeadingId.of(head, headLength, headLength == head.length);
            if (leading.decided()) {
                headDone = true;
                head = null;
                learnt(responseId(leading.id()));
            }
        }
        // the tail as a ring, each byte at its position in the body modulo TAIL: only a chunk's last TAIL bytes are
        // copied
        int ring = tail.length;
        int skipped = Math.max(0, length - ring);
        int from = offset + skipped;
        int n = length - skipped;
        int at = (int) ((total + skipped) % ring);
        int first = Math.min(n, ring - at);
        System.arraycopy(chunk, from, tail, at, first);
        System.arraycopy(chunk, from + first, tail, 0, n - first);
        total += length;
    }

    private void acceptSse(byte[] chunk, int offset, int length) {
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
        if (start < end && line.size() < MAX_LINE) {
            line.write(chunk, start, end - start);
        }
    }

    /** One SSE line, {@code b[from, to)}; copied only when it is the usage line. */
    private void line(byte[] b, int from, int to) {
        if (to - from <= 6 || b[from] != 'd' || !startsWith(b, from, "data:")) {
            return;
        }
        boolean usage = contains(b, from, to, USAGE) && !contains(b, from, to, NO_USAGE);
        if (usage) {
            lastUsageJson = Arrays.copyOfRange(b, from + 5, to);
        }
        if (responseId == null && contains(b, from, to, RESPONSE_EVENT)) {
            learnt(eventResponseId(b, from + 5, to));
        }
    }

    /** The id of a Responses API event's {@code response}, or null for any other line. */
    private static String eventResponseId(byte[] b, int from, int to) {
        try {
            JsonNode event = JSON.readTree(b, from, to - from);
            if (event != null && RESPONSE_EVENTS.contains(event.path("type").asText())) {
                return responseIdOf(event.path("response").path("id"));
            }
        } catch (IOException | RuntimeException e) {
            // not JSON: no id
        }
        return null;
    }

    private void learnt(String id) {
        if (id == null || responseId != null) {
            return;
        }
        responseId = id;
        if (onResponseId != null) {
            onResponseId.accept(id);
        }
    }

    public Usage usage() {
        JsonNode root = root();
        if (root == null) {
            return Usage.UNKNOWN;
        }
        JsonNode usage = root.path("usage");
        if (!usage.isObject() && RESPONSE_EVENTS.contains(root.path("type").asText())) {
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
     * The id of the Responses API response seen so far, or null: the leading {@code id} of a JSON body, or the
     * {@code response.id} of a stream's {@code response.created} (else its final) event. Only ids beginning with
     * {@code resp} count; a data plane hands one to {@code Dispatch.answered} only for a successful Responses API
     * request, so that follow-ups naming it come back to the same pod.
     */
    public String responseId() {
        return responseId;
    }

    /**
     * What usage is read from, parsed once: a stream's usage line, or for a JSON body {@code {"usage":...}} from
     * the last {@code "usage"} key in its tail; null when there is none or it is not JSON.
     */
    private JsonNode root() {
        if (parsed == null) {
            parsed = sse ? parse(lastUsageJson) : tailUsage();
        }
        return parsed.isMissingNode() ? null : parsed;
    }

    private static JsonNode parse(byte[] json) {
        if (json == null) {
            return JSON.missingNode();
        }
        try {
            JsonNode n = JSON.readTree(json);
            return n == null ? JSON.missingNode() : n;
        } catch (IOException | RuntimeException e) {
            return JSON.missingNode();
        }
    }

    /**
     * The top-level usage of a JSON body, as {@code {"usage": <value>}}. A {@code "usage"} key followed by a colon can
     * only be a key (a quote inside a string is escaped), and vLLM's top-level one is its last.
     */
    private JsonNode tailUsage() {
        int ring = tail.length;
        int n = (int) Math.min(total, ring);
        if (n == 0) {
            return JSON.missingNode();
        }
        byte[] last = new byte[n];
        int start = (int) ((total - n) % ring);
        int first = Math.min(n, ring - start);
        System.arraycopy(tail, start, last, 0, first);
        System.arraycopy(tail, 0, last, first, n - first);
        for (int i = n - USAGE.length; i >= 0; i--) {
            if (last[i] != '"' || !matches(last, i, USAGE)) {
                continue;
            }
            int v = LeadingId.skipSpace(last, i + USAGE.length, n);
            if (v < n && last[v] == ':') {
                try (JsonParser p = JSON.createParser(last, v + 1, n - v - 1)) {
                    JsonNode usage = p.readValueAsTree();
                    return usage == null ? JSON.missingNode() : JSON.createObjectNode().set("usage", usage);
                } catch (IOException | RuntimeException e) {
                    return JSON.missingNode();
                }
            }
        }
        return JSON.missingNode();
    }

    private static String responseIdOf(JsonNode v) {
        return v.isTextual() ? responseId(v.textValue()) : null;
    }

    /** {@code id} when it is a response's (vLLM refuses a {@code previous_response_id} not beginning with resp). */
    private static String responseId(String id) {
        return id != null && id.startsWith("resp") ? id : null;
    }

    private static long first(JsonNode usage, String name, String alternative) {
        JsonNode v = usage.has(name) ? usage.path(name) : usage.path(alternative);
        return v.asLong(-1);
    }

    private static boolean matches(byte[] b, int at, byte[] needle) {
        if (at + needle.length > b.length) {
            return false;
        }
        for (int j = 0; j < needle.length; j++) {
            if (b[at + j] != needle[j]) {
                return false;
            }
        }
        return true;
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
