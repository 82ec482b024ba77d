package dev.homing.router.proxy;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.protocol.gateway.GatewayHeaders;
import dev.homing.router.upstream.UpstreamClient;
import dev.homing.router.upstream.UpstreamResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The proxy's side of the connection to model servers: which of a client's headers go on to a pod, and the pooled
 * HTTP/1.1 client ({@link UpstreamClient}) that carries the original body bytes there and hands back the response to
 * read as it arrives. HTTP/1.1 with keep-alive, as vLLM serves it.
 */
public final class Upstream implements AutoCloseable {

    /** Headers that belong to one hop, or that the client sets itself. */
    private static final Set<String> NOT_FORWARDED = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length", "expect", "http2-settings",
            "accept-encoding");

    private final UpstreamClient client;

    public Upstream(Duration connectTimeout, Duration responseTimeout) {
        this.client = new UpstreamClient(connectTimeout, responseTimeout);
    }

    /**
     * Sends a request and waits for the response head. The client's headers go on but for a hop's own and those that
     * stop at the router (those only it may set, those that steer it); the pre-request plugins' (P/D's prefiller
     * address, for instance) are added: one copy, made here.
     *
     * @throws IOException when the endpoint cannot be reached or does not answer in time (no response byte has been
     *                     relayed; {@link dev.homing.router.upstream.ResponseTimeoutException} when the pod took the
     *                     request and said nothing in time)
     */
    public UpstreamResponse send(Endpoint endpoint, String method, String pathAndQuery, Map<String, String> headers,
                                 Map<String, String> pluginHeaders, byte[] body) throws IOException {
        Map<String, String> out = new LinkedHashMap<>(Math.max(8, (headers.size() + pluginHeaders.size()) * 2));
        for (Map.Entry<String, String> h : headers.entrySet()) {
            if (forwarded(h.getKey())) {
                out.put(h.getKey(), h.getValue());
            }
        }
        pluginHeaders.forEach((k, v) -> out.put(k.toLowerCase(Locale.ROOT), v));
        return client.send(endpoint.address(), method, pathAndQuery, out, body);
    }

    /**
     * Whether a client's header goes on to the pod: not a hop's own, nor a pseudo-header ({@code :path}, ...), nor one
     * that stops at the router.
     */
    private static boolean forwarded(String headerName) {
        return !headerName.startsWith(":") && !NOT_FORWARDED.contains(headerName.toLowerCase(Locale.ROOT))
                && !GatewayHeaders.stopsAtRouter(headerName);
    }

    /** Closes the idle connections to an endpoint that left the pool. */
    public void forget(Endpoint endpoint) {
        client.forget(endpoint.address());
    }

    @Override
    public void close() {
        client.close();
    }
}
