package dev.homing.router.proxy;

import dev.homing.core.director.Dispatch;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.protocol.gateway.GatewayHeaders;
import dev.homing.protocol.openai.OpenAiError;
import dev.homing.router.http.ErrorResponses;
import dev.homing.router.http.Usage;
import dev.homing.router.http.UsageScanner;
import dev.homing.router.upstream.UpstreamResponse;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
    private static final int SSE_BUFFER = 4 * 1024;
    /** Bodies of known length up to this are held whole and sent in one write. */
    private static final int WHOLE = 64 * 1024;

    /** The status the client got (0 when none) and the usage the endpoint reported. */
    record Result(int status, Usage usage) {
        static final Result NONE = new Result(0, Usage.UNKNOWN);
    }

    private Relay() {
    }

    static Result relay(UpstreamResponse response, ServerResponse res, Dispatch dispatch, Runnable firstChunk) {
        // The body is closed whatever happens from here on, so a failing plugin never leaves the pod generating:
        // read to its end, its connection serves the next request; closed before, the pod aborts the request.
        try (response) {
            return relay(response, response.body(), res, dispatch, firstChunk);
        }
    }

    private static Result relay(UpstreamResponse response, InputStream in, ServerResponse res,
                                Dispatch dispatch, Runnable firstChunk) {
        int status = response.status();
        String contentType = response.header("content-type");
        boolean sse = contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("text/event-stream");
        EndpointState target = dispatch.target();
        res.status(status);
        for (Map.Entry<String, List<String>> h : response.headers().entrySet()) {
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
        long length = response.contentLength();

        // A response's id is remembered as it passes, before the bytes carrying it go on: a follow-up the client sends
        // the moment it has them must find this pod.
        UsageScanner usage = new UsageScanner(sse, status >= 200 && status < 300 ? dispatch::answered : null,
                sse ? -1 : length);
        Outcome.Cause cause = !sse && length >= 0 && length <= WHOLE
                ? relayWhole(in, (int) length, res, dispatch, usage)
                : relayStream(in, sse, length, res, dispatch, usage, firstChunk);
        Usage u = usage.usage();
        dispatch.complete(new Outcome(cause, status, u.promptTokens(), u.completionTokens(), u.cachedTokens()));
        return new Result(res.status().code(), u); // what the client got: a 502 where a whole body broke off
    }

    /**
     * A body of known length up to {@link #WHOLE}: read into one array of its size and sent in one write with the
     * head (what a non-streamed completion is). A pod that stops short gets the client a 502, not a cut body.
     */
    private static Outcome.Cause relayWhole(InputStream in, int length, ServerResponse res, Dispatch dispatch,
                                            UsageScanner usage) {
        byte[] body = new byte[length];
        int filled = 0;
        while (filled < length) {
            int n;
            try {
                n = in.read(body, filled, length - filled);
            } catch (IOException e) {
                n = -1;
            }
            if (n < 0) {
                ErrorResponses.send(res, OpenAiError.badGateway("The model server stopped after " + filled + " of "
                        + length + " bytes."));
                return Outcome.Cause.ERROR;
            }
            if (filled == 0) {
                dispatch.firstToken(); // the pod answers once its prefill is over: its pending prefill shrinks now
            }
            usage.accept(body, filled, n);
            dispatch.onBodyChunk(body, filled, n);
            filled += n;
        }
        try {
            res.send(body);
            return Outcome.Cause.NATURAL;
        } catch (RuntimeException e) {
            return Outcome.Cause.CLIENT_DISCONNECT; // Helidon's unchecked ServerConnectionException
        }
    }

    /** A stream, or a body too long to hold: relayed read by read, an SSE stream flushed at each read. */
    private static Outcome.Cause relayStream(InputStream in, boolean sse, long length, ServerResponse res,
                                             Dispatch dispatch, UsageScanner usage, Runnable firstChunk) {
        if (!sse && length >= 0) {
            res.contentLength(length);
        }
        Outcome.Cause cause = Outcome.Cause.NATURAL;
        OutputStream out = res.outputStream();
        byte[] buf = new byte[sse ? SSE_BUFFER : BUFFER];
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
        return cause;
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
