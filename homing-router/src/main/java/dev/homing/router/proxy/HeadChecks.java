package dev.homing.router.proxy;

import dev.homing.protocol.openai.OpenAiError;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.util.Set;

/**
 * What makes a request's head one the API port will not take, by HTTP/1.1's rules (RFC 9110, 9112), checked before
 * its route: what is refused here closes the connection after the answer, since the rest of what the client sent
 * cannot be trusted to be framed as it says. Pods never see such a request.
 */
final class HeadChecks {

    /** Most header fields a request may carry (Envoy's {@code max_request_headers_count}). */
    static final int MAX_HEADERS = 100;
    /** The methods of RFC 9110 §9 and PATCH; any other (a lower-case {@code post} too: methods are case-sensitive). */
    private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS",
            "TRACE", "PATCH");
    private static final Set<String> WITH_BODY = Set.of("POST", "PUT", "PATCH");

    private HeadChecks() {
    }

    /** @return why the head is refused, or null when it may be routed */
    static OpenAiError refusal(HttpRequest req) {
        if (req.decoderResult().isFailure()) {
            Throwable cause = req.decoderResult().cause();
            if (cause instanceof TooLongHttpHeaderException) {
                return new OpenAiError(431, "BadRequestError", "Request header fields too large: "
                        + cause.getMessage(), null);
            }
            if (cause instanceof TooLongHttpLineException) {
                return new OpenAiError(414, "BadRequestError", "Request line too long: " + cause.getMessage(), null);
            }
            return OpenAiError.badRequest("Malformed request: " + cause.getMessage(), null);
        }
        HttpHeaders h = req.headers();
        if (h.size() > MAX_HEADERS) {
            return new OpenAiError(431, "BadRequestError", "Request has " + h.size() + " header fields; at most "
                    + MAX_HEADERS + " are taken.", null);
        }
        HttpVersion version = req.protocolVersion();
        if (version.majorVersion() != 1) { // an HTTP/2 client's preface (PRI * HTTP/2.0), say
            return new OpenAiError(505, "HTTPVersionNotSupportedError", "Only HTTP/1.x is served on this port, not "
                    + version.text() + ".", null);
        }
        String method = req.method().name();
        if (!METHODS.contains(method)) {
            return new OpenAiError(501, "NotImplementedError", "Method " + method + " is not implemented.", null);
        }
        String uri = req.uri();
        if (!uri.startsWith("/") && !uri.regionMatches(true, 0, "http://", 0, 7)
                && !uri.regionMatches(true, 0, "https://", 0, 8)) {
            return OpenAiError.badRequest("Request target '" + clip(uri) + "' is neither a path nor an absolute URI.",
                    null);
        }
        if (version.minorVersion() >= 1 && h.getAll(HttpHeaderNames.HOST).size() != 1) {
            return OpenAiError.badRequest("An HTTP/1.1 request carries one Host header (RFC 9112 §3.2).", null);
        }
        var codings = h.getAll(HttpHeaderNames.TRANSFER_ENCODING);
        if (!codings.isEmpty() && (codings.size() > 1 || !codings.getFirst().strip().equalsIgnoreCase("chunked"))) {
            return new OpenAiError(501, "NotImplementedError", "Transfer-Encoding " + String.join(", ", codings)
                    + " is not implemented: only chunked is.", null);
        }
        if (WITH_BODY.contains(method) && codings.isEmpty() && !h.contains(HttpHeaderNames.CONTENT_LENGTH)) {
            return new OpenAiError(411, "BadRequestError", "A " + method + " needs Content-Length or a chunked body.",
                    null);
        }
        return null;
    }

    /**
     * Why a request whose framing is sound is still not taken (answered once its body has been read, the connection
     * kept), or null: a content coding the router does not decode, where it must read the body to route it.
     */
    static OpenAiError unreadable(HttpRequest req) {
        String coding = req.headers().get(HttpHeaderNames.CONTENT_ENCODING);
        if (coding != null && !coding.strip().equalsIgnoreCase("identity")) {
            return new OpenAiError(415, "BadRequestError", "Content-Encoding " + clip(coding)
                    + " is not supported: send the JSON body as it is.", null);
        }
        return null;
    }

    private static String clip(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "...";
    }
}
