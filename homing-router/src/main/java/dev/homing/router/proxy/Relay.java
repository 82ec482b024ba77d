package dev.homing.router.proxy;

import dev.homing.core.director.Dispatch;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.protocol.gateway.GatewayHeaders;
import dev.homing.protocol.openai.OpenAiError;
import dev.homing.router.http.Usage;
import dev.homing.router.http.UsageScanner;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Copies an endpoint's response to the client as it arrives: SSE is flushed chunk by chunk, never buffered whole.
 * A client that goes away stops the copy and closes the upstream stream, which aborts the request on the pod.
 */
final class Relay {

    static final String POD_HEADER = "x-homing-pod";
    private static final Set<String> NOT_COPIED = Set.of("connection", "keep-alive", "transfer-encoding",
            "content-length", "date", "server", "trailer", "upgrade");
    private static final int BUFFER = 16 * 1024;

    /** The status the client got (0 when none) and the usage the endpoint reported. */
    record Result(int status, Usage usage) {
        static final Result NONE = new Result(0, Usage.UNKNOWN);
    }

    private Relay() {
    }

    static Result relay(HttpResponse<InputStream> response, ServerResponse res, Dispatch dispatch, Runnable firstChunk) {
        // The body is closed whatever happens from here on, so a failing plugin never leaves the pod generating.
        try (InputStream in = response.body()) {
            return relay(response, in, res, dispatch, firstChunk);
        } catch (IOException e) {
            // closing the upstream stream failed: nothing left to do, the connection is dropped
            return new Result(response.statusCode(), Usage.UNKNOWN);
        }
    }

    private static Result relay(HttpResponse<InputStream> response, InputStream in, ServerResponse res,
                                Dispatch dispatch, Runnable firstChunk) {
        int status = response.statusCode();
        String contentType = response.headers().firstValue("content-type").orElse("");
        boolean sse = contentType.toLowerCase(Locale.ROOT).startsWith("text/event-stream");
        EndpointState target = dispatch.target();
        res.status(status);
        for (Map.Entry<String, List<String>> h : response.headers().map().entrySet()) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            if (!NOT_COPIED.contains(name) && !name.startsWith(":")) {
                res.header(h.getKey(), h.getValue().toArray(String[]::new));
            }
        }
        res.header(GatewayHeaders.DESTINATION_ENDPOINT, target.endpoint().address());
        res.header(POD_HEADER, target.name());
        Map<String, String> extra = new LinkedHashMap<>();
        dispatch.onHeaders(status, extra);
        extra.forEach(res::header);
        long length = response.headers().firstValueAsLong("content-length").orElse(-1);
        if (!sse && length >= 0) {
            res.contentLength(length);
        }

        // A response's id is remembered as it passes, before the bytes carrying it go on: a follow-up the client sends
        // the moment it has them must find this pod.
        UsageScanner usage = new UsageScanner(sse, status >= 200 && status < 300 ? dispatch::answered : null);
        Outcome.Cause cause = Outcome.Cause.NATURAL;
        OutputStream out = res.outputStream();
        byte[] buf = new byte[BUFFER];
        boolean first = true;
        while (true) {
            int n;
            try {
                n = in.read(buf);
            } catch (IOException e) {
                cause = Outcome.Cause.ERROR;
                if (sse) {
                    writeQuietly(out, sseError("The model server stopped mid-stream: " + e.getMessage()));
                }
                break;
            }
            if (n < 0) {
                break;
            }
            if (first) {
                // The pod answers once its prefill is over (or it gave up): its pending prefill shrinks now.
                dispatch.firstToken();
                if (sse) {
                    firstChunk.run();
                }
                first = false;
            }
            usage.accept(buf, 0, n);
            dispatch.onBodyChunk(buf, 0, n);
            try {
                out.write(buf, 0, n);
                if (sse) {
                    out.flush();
                }
            } catch (IOException | RuntimeException e) {
                // Helidon reports a client gone with its own unchecked ServerConnectionException
                cause = Outcome.Cause.CLIENT_DISCONNECT;
                break;
            }
        }
        try {
            out.close();
        } catch (IOException | RuntimeException e) {
            if (cause == Outcome.Cause.NATURAL) {
                cause = Outcome.Cause.CLIENT_DISCONNECT;
            }
        }
        Usage u = usage.usage();
        dispatch.complete(new Outcome(cause, status, u.promptTokens(), u.completionTokens(), u.cachedTokens()));
        return new Result(status, u);
    }

    private static byte[] sseError(String message) {
        OpenAiError e = OpenAiError.badGateway(message);
        return ("data: " + new String(e.toJson(), StandardCharsets.UTF_8) + "\n\n").getBytes(StandardCharsets.UTF_8);
    }

    private static void writeQuietly(OutputStream out, byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException | RuntimeException ignored) {
            // the client is gone too
        }
    }
}
