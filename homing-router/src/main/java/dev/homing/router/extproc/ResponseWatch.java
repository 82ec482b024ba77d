package dev.homing.router.extproc;

import com.google.protobuf.ByteString;
import dev.homing.core.director.Dispatch;
import dev.homing.router.http.Usage;
import dev.homing.router.http.UsageScanner;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What the picker learns from a placed request's response as the gateway passes it through: the first token (the
 * pod has prefilled), the usage, a Responses API id (remembered before the chunk carrying it is echoed: a follow-up
 * may come the moment it is read), and the plugins' response hooks. Watching never puts the response at risk: a
 * failure here is logged once and watching stops, while the response goes on being echoed.
 */
final class ResponseWatch {

    private static final System.Logger LOG = System.getLogger(ResponseWatch.class.getName());

    private final Dispatch dispatch;
    private final Runnable firstToken;
    private int status = -1; // until the response headers say; never, when the gateway skips them
    private UsageScanner usage;
    private boolean first = true;
    private boolean watching = true;

    /** @param firstToken told once, at the first body bytes (for the time-to-first-token metric) */
    ResponseWatch(Dispatch dispatch, Runnable firstToken) {
        this.dispatch = dispatch;
        this.firstToken = firstToken;
    }

    /** The response headers arrived (pseudo-headers included): the headers the plugins add to them. */
    Map<String, String> headers(Map<String, String> headers) {
        status = (int) Math.max(0, parseStatus(headers.get(":status")));
        boolean sse = headers.getOrDefault("content-type", "").toLowerCase(Locale.ROOT).startsWith("text/event-stream");
        usage = new UsageScanner(sse, status >= 200 && status < 300 ? dispatch::answered : null);
        Map<String, String> extra = new HashMap<>();
        watch(() -> dispatch.onHeaders(status, extra));
        return extra;
    }

    /** A chunk of the response body, before it is echoed. */
    void chunk(ByteString chunk) {
        if (chunk.isEmpty()) {
            return;
        }
        if (first) {
            first = false;
            dispatch.firstToken(); // the pod has prefilled the prompt
            firstToken.run();
        }
        watch(() -> {
            byte[] bytes = chunk.toByteArray();
            if (usage == null) {
                // The gateway skips the response headers: tell an event stream by its first bytes. A response id
                // found is a Responses API answer's (error bodies carry none), so it is learnt without a status.
                usage = new UsageScanner(eventStream(bytes), dispatch::answered);
            }
            usage.accept(bytes, 0, bytes.length);
            dispatch.onBodyChunk(bytes, 0, bytes.length);
        });
    }

    /** The response's status, or -1 when the gateway did not report its headers. */
    int status() {
        return status;
    }

    Usage usage() {
        return usage == null || !watching ? Usage.UNKNOWN : usage.usage();
    }

    private void watch(Runnable step) {
        if (!watching) {
            return;
        }
        try {
            step.run();
        } catch (RuntimeException e) {
            watching = false;
            LOG.log(System.Logger.Level.WARNING, "watching a response failed; it is passed on unwatched", e);
        }
    }

    /** Whether a body starts as Server-Sent Events do ({@code data:}, {@code event:}, {@code id:} or a comment). */
    static boolean eventStream(byte[] body) {
        int i = 0;
        while (i < body.length && (body[i] == ' ' || body[i] == '\n' || body[i] == '\r')) {
            i++;
        }
        String head = new String(body, i, Math.min(6, body.length - i), StandardCharsets.US_ASCII);
        return head.startsWith("data:") || head.startsWith("event:") || head.startsWith("id:") || head.startsWith(":");
    }

    private static long parseStatus(String s) {
        try {
            return s == null ? -1 : Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
