package dev.homing.router.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads {@code usage} from a response as its bytes pass through, without holding the stream back. For SSE it keeps
 * only the last {@code data:} line that mentions usage (vLLM sends it in the final chunk with
 * {@code stream_options.include_usage}); for a JSON body it keeps the body up to a limit and reads it at the end.
 */
public final class UsageScanner {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] USAGE = "\"usage\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NO_USAGE = "\"usage\":null".getBytes(StandardCharsets.US_ASCII);
    private static final int MAX_JSON_BODY = 1 << 20;

    private final boolean sse;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(512);
    private byte[] lastUsageJson;
    private boolean overflow;

    public UsageScanner(boolean sse) {
        this.sse = sse;
    }

    public void accept(byte[] chunk, int offset, int length) {
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

    /** One SSE line, {@code b[from, to)}; copied only when it is the usage line. */
    private void line(byte[] b, int from, int to) {
        if (to - from > 6 && b[from] == 'd' && startsWith(b, from, "data:") && contains(b, from, to, USAGE)
                && !contains(b, from, to, NO_USAGE)) {
            lastUsageJson = Arrays.copyOfRange(b, from + 5, to);
        }
    }

    public Usage usage() {
        byte[] json;
        if (sse) {
            if (lastUsageJson == null) {
                return Usage.UNKNOWN;
            }
            json = lastUsageJson;
        } else {
            if (overflow || line.size() == 0) {
                return Usage.UNKNOWN;
            }
            json = line.toByteArray();
        }
        try {
            JsonNode usage = JSON.readTree(json).path("usage");
            if (!usage.isObject()) {
                return Usage.UNKNOWN;
            }
            long prompt = usage.path("prompt_tokens").asLong(-1);
            // vLLM leaves prompt_tokens_details out when nothing was cached (or the pod does not report it): 0
            long cached = usage.path("prompt_tokens_details").path("cached_tokens").asLong(prompt >= 0 ? 0 : -1);
            return new Usage(prompt, usage.path("completion_tokens").asLong(-1), cached);
        } catch (IOException | RuntimeException e) {
            return Usage.UNKNOWN;
        }
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
