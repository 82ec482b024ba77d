package dev.homing.router.upstream;

import java.io.IOException;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * HTTP/1.1 to model servers over pooled keep-alive connections, one blocking exchange per calling (virtual) thread.
 * A request goes out as its head and the caller's body bytes; {@link #send} returns once the response head is in, its
 * body to be read as it arrives ({@link UpstreamResponse}). A request that fails on a pooled connection before the pod
 * sent any byte (the pod had closed it while idle) is sent once more on a new connection: the pod never saw it.
 * Thread-safe.
 */
public final class UpstreamClient implements AutoCloseable {

    /** Idle connections kept per pod: enough for a burst's worth of concurrent requests to reuse theirs. */
    public static final int DEFAULT_MAX_IDLE_PER_POD = 256;
    /**
     * Under vLLM's idle keep-alive ({@code VLLM_HTTP_TIMEOUT_KEEP_ALIVE}, 5 s by default in {@code vllm/envs.py}, handed
     * to uvicorn), so the router lets an idle connection go before the pod does.
     */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(4);

    private final int connectTimeoutMillis;
    private final int responseTimeoutMillis;
    private final int bodyTimeoutMillis;
    private final ConnectionPool pool;

    /**
     * @param connectTimeout  longest wait for a connection to open
     * @param responseTimeout longest wait from the request sent to the response head (0: none)
     * @param bodyTimeout     longest wait for the next of the body's bytes, once the head is in (0: none); a read
     *                        that waits longer fails with a {@link java.net.SocketTimeoutException}
     */
    public UpstreamClient(Duration connectTimeout, Duration responseTimeout, Duration bodyTimeout, int maxIdlePerPod,
                          Duration idleTimeout) {
        this.connectTimeoutMillis = millis(connectTimeout);
        this.responseTimeoutMillis = millis(responseTimeout);
        this.bodyTimeoutMillis = millis(bodyTimeout);
        this.pool = new ConnectionPool(maxIdlePerPod, idleTimeout.toNanos(), System::nanoTime);
    }

    /** A client that waits any time for a body's next bytes (a stream's tokens may come far apart). */
    public UpstreamClient(Duration connectTimeout, Duration responseTimeout) {
        this(connectTimeout, responseTimeout, Duration.ZERO, DEFAULT_MAX_IDLE_PER_POD, DEFAULT_IDLE_TIMEOUT);
    }

    /**
     * Sends a request and waits for the response head.
     *
     * @param address      the pod's {@code host:port}
     * @param pathAndQuery the request target, starting with {@code /}
     * @param headers      headers to send as they are, hop-by-hop ones already left out; {@code Host} and
     *                     {@code Content-Length} are set here
     * @param body         the body, or null for none
     * @throws UpstreamConnectException when no connection could be opened
     * @throws ResponseTimeoutException when no response head came within the response timeout
     * @throws IOException              when the exchange failed otherwise (the pod may have seen the request)
     */
    public UpstreamResponse send(String address, String method, String pathAndQuery, Map<String, String> headers,
                                 byte[] body) throws IOException {
        byte[] head = requestHead(address, method, pathAndQuery, headers, body);
        while (true) {
            Http1Connection conn = pool.borrow(address);
            boolean pooled = conn != null;
            if (conn == null) {
                conn = open(address);
            }
            try {
                conn.send(head, body);
                ResponseHead response = conn.readHead(method, responseTimeoutMillis, bodyTimeoutMillis);
                return new UpstreamResponse(response, new BodyStream(conn, response, pool));
            } catch (ResponseTimeoutException e) {
                conn.close();
                throw e;
            } catch (IOException e) {
                conn.close();
                if (pooled && conn.nothingReceived() && stale(e)) {
                    continue; // the pod closed this idle connection: it never saw the request
                }
                throw e;
            }
        }
    }

    /** A failure of the kind a connection the pod closed while idle shows on first use. */
    private static boolean stale(IOException e) {
        return e instanceof SocketException || e instanceof java.io.EOFException;
    }

    private Http1Connection open(String address) throws UpstreamConnectException {
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new UpstreamConnectException("Not a host:port address: " + address, null);
        }
        String host = address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(address, colon + 1, address.length(), 10);
        } catch (NumberFormatException e) {
            throw new UpstreamConnectException("Not a host:port address: " + address, e);
        }
        return Http1Connection.open(address, host, port, connectTimeoutMillis);
    }

    private static byte[] requestHead(String address, String method, String pathAndQuery,
                                      Map<String, String> headers, byte[] body) {
        StringBuilder b = new StringBuilder(256 + 48 * headers.size());
        b.append(method).append(' ').append(pathAndQuery).append(" HTTP/1.1\r\nHost: ").append(address)
                .append("\r\n");
        for (Map.Entry<String, String> h : headers.entrySet()) {
            String name = h.getKey();
            if (name.equalsIgnoreCase("host") || name.equalsIgnoreCase("content-length")
                    || !fieldSafe(name) || !fieldSafe(h.getValue())) {
                continue; // set here, or a line break that would smuggle a header or a request in
            }
            b.append(name).append(": ").append(h.getValue()).append("\r\n");
        }
        if (body != null || !"GET".equals(method) && !"HEAD".equals(method)) {
            b.append("Content-Length: ").append(body == null ? 0 : body.length).append("\r\n");
        }
        b.append("\r\n");
        // Header values reached the router as ISO-8859-1 text; they leave as the same bytes.
        return b.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Whether a header name or value may be sent as it is: no line break or NUL that would smuggle a header in. */
    public static boolean fieldSafe(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\r' || c == '\n' || c == 0) {
                return false;
            }
        }
        return true;
    }

    /** Closes the idle connections to a pod that left the pool. */
    public void forget(String address) {
        pool.evict(address);
    }

    /** Idle connections kept for {@code address}. */
    public int idleConnections(String address) {
        return pool.idleCount(address);
    }

    @Override
    public void close() {
        pool.close();
    }

    private static int millis(Duration d) {
        return d == null || d.isZero() || d.isNegative() ? 0 : (int) Math.min(Integer.MAX_VALUE, d.toMillis());
    }
}
