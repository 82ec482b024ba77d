package dev.homing.router.proxy;

import dev.homing.core.endpoint.Endpoint;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The connection to model servers: forwards the client's original body bytes and hands back the response as a stream,
 * read as it arrives. HTTP/1.1 with keep-alive, as vLLM serves it.
 */
public final class Upstream implements AutoCloseable {

    /** Headers that belong to one hop, or that the JDK client sets itself. */
    private static final Set<String> NOT_FORWARDED = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length", "expect", "http2-settings",
            "accept-encoding");

    private final HttpClient client;
    private final Duration responseTimeout;

    public Upstream(Duration connectTimeout, Duration responseTimeout) {
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        this.responseTimeout = responseTimeout;
    }

    /**
     * Sends a request and waits for the response headers.
     *
     * @throws IOException when the endpoint cannot be reached or does not answer in time (the request may be retried
     *                     elsewhere: no response byte has been relayed)
     */
    public HttpResponse<InputStream> send(Endpoint endpoint, String method, String pathAndQuery,
                                          Map<String, String> headers, byte[] body)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://" + endpoint.address() + pathAndQuery))
                .timeout(responseTimeout)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        for (Map.Entry<String, String> h : headers.entrySet()) {
            if (forwarded(h.getKey())) {
                b.header(h.getKey(), h.getValue());
            }
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
    }

    /** Whether a client's header goes on to the pod: not a hop's own, nor a pseudo-header ({@code :path}, ...). */
    public static boolean forwarded(String headerName) {
        return !headerName.startsWith(":") && !NOT_FORWARDED.contains(headerName.toLowerCase(Locale.ROOT));
    }

    public HttpClient client() {
        return client;
    }

    @Override
    public void close() {
        client.close();
    }
}
