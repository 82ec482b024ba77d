package dev.homing.router.proxy;

import static dev.homing.router.upstream.UpstreamClient.fieldSafe;

import dev.homing.protocol.gateway.GatewayHeaders;
import dev.homing.router.auth.Access;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which headers cross the router, each way. To a pod go the client's headers but for a hop's own and those that stop
 * at the router (those only it may set, those that steer it), with the pre-request plugins' added (P/D's prefiller
 * address, say); back to the client go the pod's but for a hop's own and those the router's server sets itself.
 */
final class ForwardedHeaders {
    // Authorization is set apart (Access decides what a pod is told); the admin token never leaves the router.

    /** Headers that belong to one hop, or that the client sets itself. */
    private static final Set<String> NOT_FORWARDED = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length", "expect", "http2-settings",
            "accept-encoding", "authorization", Access.ADMIN_TOKEN_HEADER);
    private static final String[] NOT_RETURNED = {"connection", "keep-alive", "transfer-encoding", "content-length",
            "date", "server", "trailer", "upgrade"};

    private ForwardedHeaders() {
    }

    /**
     * The head of the request to a pod.
     *
     * @param client        the client's headers, names lower-cased (as the intake keeps them)
     * @param plugins       the pre-request plugins' headers
     * @param authorization the {@code Authorization} for the pod (the client's, the pod's own token), or null for none
     * @param bodyLength    the body's bytes; -1 for none (a GET, a HEAD: no Content-Length)
     */
    static HttpHeaders toPod(Map<String, String> client, Map<String, String> plugins, String address,
                             String authorization, int bodyLength) {
        HttpHeaders out = new DefaultHttpHeaders(false); // values checked here: no line break smuggles a header in
        out.set(HttpHeaderNames.HOST, address);
        for (Map.Entry<String, String> h : client.entrySet()) {
            String name = h.getKey();
            if (!name.startsWith(":") && !NOT_FORWARDED.contains(name) && !GatewayHeaders.stopsAtRouter(name)
                    && fieldSafe(name) && fieldSafe(h.getValue())) {
                out.add(name, h.getValue());
            }
        }
        if (authorization != null && fieldSafe(authorization)) {
            out.set(HttpHeaderNames.AUTHORIZATION, authorization);
        }
        for (Map.Entry<String, String> h : plugins.entrySet()) {
            if (fieldSafe(h.getKey()) && fieldSafe(h.getValue())) {
                out.set(h.getKey().toLowerCase(Locale.ROOT), h.getValue());
            }
        }
        if (bodyLength >= 0) {
            out.set(HttpHeaderNames.CONTENT_LENGTH, bodyLength);
        }
        return out;
    }

    /** Whether a pod's response header goes back to the client. */
    static boolean returned(String name) {
        if (name.startsWith(":")) {
            return false;
        }
        for (String n : NOT_RETURNED) {
            if (n.equalsIgnoreCase(name)) {
                return false;
            }
        }
        return true;
    }
}
