package dev.homing.cli.cluster;

import com.google.protobuf.ByteString;
import dev.homing.bench.extproc.EnvoyMessages;
import dev.homing.bench.extproc.ExtProcCall;
import dev.homing.protocol.gateway.GatewayHeaders;
import dev.homing.protocol.openai.OpenAiError;
import dev.homing.router.http.BodyReader;
import dev.homing.router.http.ErrorResponses;
import dev.homing.router.http.HttpPort;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.service.ext_proc.v3.HeaderMutation;
import io.envoyproxy.envoy.service.ext_proc.v3.ImmediateResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import io.helidon.http.Header;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in for Envoy in front of a local cluster ({@code homing up --ext-proc}): an HTTP port that asks the
 * router's ext_proc picker where each request goes, exactly as a Gateway API gateway does, then sends it there and
 * streams the response back through the picker. It plays the gateway's part of the endpoint-picker protocol (the
 * request in FULL_DUPLEX_STREAMED chunks, the header mutation applied, the fallback list tried in order and the
 * endpoint that served reported back), so the picker can be tried, and watched, without an Envoy binary. Not a
 * gateway to deploy: no TLS to clients, no retries on upstream errors, no timeouts but the picker's.
 */
public final class LocalGateway implements AutoCloseable {

    private static final int CHUNK = 16 * 1024;
    private static final int MAX_BODY = 32 << 20;
    private static final Set<String> HOP = Set.of("connection", "keep-alive", "transfer-encoding", "content-length",
            "host", "upgrade", "te", "trailer", "expect", "http2-settings", "date", "server");

    private final ManagedChannel picker;
    private final HttpClient upstream = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final HttpPort port;

    /** @param tls whether the picker speaks TLS (trusted without verification, as gateways reach llm-d's picker) */
    public LocalGateway(String host, int port, int pickerPort, boolean tls) {
        this.picker = ExtProcCall.channel(host, pickerPort, tls);
        this.port = new HttpPort("gateway", host, port, r -> r.any(this::handle));
    }

    public void start() {
        port.start();
    }

    public int port() {
        return port.port();
    }

    private void handle(ServerRequest req, ServerResponse res) throws IOException {
        byte[] body;
        try (InputStream in = req.content().inputStream()) {
            body = BodyReader.read(in, req.headers().contentLength().orElse(-1), MAX_BODY);
        } catch (BodyReader.TooLargeException e) {
            ErrorResponses.send(res, OpenAiError.payloadTooLarge(MAX_BODY));
            return;
        }
        String method = req.prologue().method().text();
        String query = req.prologue().query().rawValue();
        String path = req.prologue().uriPath().rawPath() + (query == null || query.isEmpty() ? "" : "?" + query);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(":method", method);
        headers.put(":path", path);
        headers.put(":authority", req.authority());
        headers.put(":scheme", "http");
        for (Header h : req.headers()) {
            headers.putIfAbsent(h.name().toLowerCase(Locale.ROOT), h.values());
        }
        try (ExtProcCall call = ExtProcCall.open(picker)) {
            call.send(EnvoyMessages.requestHeaders(headers, body.length == 0));
            for (int off = 0; off < body.length; off += CHUNK) {
                int end = Math.min(body.length, off + CHUNK);
                call.send(EnvoyMessages.requestBody(body, off, end, end == body.length));
            }
            ProcessingResponse decided = call.next();
            if (decided.hasImmediateResponse()) {
                immediate(res, decided.getImmediateResponse());
                return;
            }
            HeaderMutation mutation = decided.getRequestHeaders().getResponse().getHeaderMutation();
            byte[] forwarded = body.length == 0 ? body : ExtProcCall.joined(call.bodyUntilEnd(true), true).toByteArray();
            Map<String, String> out = new LinkedHashMap<>(headers);
            mutation.getRemoveHeadersList().forEach(h -> out.remove(h.toLowerCase(Locale.ROOT)));
            for (HeaderValueOption o : mutation.getSetHeadersList()) {
                out.put(o.getHeader().getKey().toLowerCase(Locale.ROOT), o.getHeader().getRawValue().toStringUtf8());
            }
            String destinations = out.getOrDefault(GatewayHeaders.DESTINATION_ENDPOINT, "");
            forward(call, method, path, out, forwarded, List.of(destinations.split(",")), res);
        }
    }

    /** Envoy's ORIGINAL_DST on the header: the first endpoint that takes the connection; the one that did is told. */
    private void forward(ExtProcCall call, String method, String path, Map<String, String> headers, byte[] body,
                         List<String> destinations, ServerResponse res) throws IOException {
        HttpResponse<InputStream> response = null;
        String served = null;
        for (String d : destinations) {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://" + d.strip() + path))
                    .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            headers.forEach((k, v) -> {
                if (!k.startsWith(":") && !HOP.contains(k)) {
                    b.header(k, v);
                }
            });
            try {
                response = upstream.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
                served = d.strip();
                break;
            } catch (ConnectException | HttpConnectTimeoutException e) {
                // down the list, as Envoy goes on a connect failure
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (response == null) {
            ErrorResponses.send(res, OpenAiError.serviceUnavailable("No endpoint the picker named took the connection: "
                    + String.join(",", destinations)));
            return;
        }
        Map<String, String> rh = new LinkedHashMap<>();
        rh.put(":status", Integer.toString(response.statusCode()));
        response.headers().map().forEach((k, v) -> rh.put(k.toLowerCase(Locale.ROOT), String.join(",", v)));
        call.send(EnvoyMessages.withServed(EnvoyMessages.responseHeaders(rh, false), served));
        ProcessingResponse answered = call.next();
        res.status(response.statusCode());
        rh.forEach((k, v) -> {
            if (!k.startsWith(":") && !HOP.contains(k)) {
                res.header(k, v);
            }
        });
        for (HeaderValueOption o : answered.getResponseHeaders().getResponse().getHeaderMutation().getSetHeadersList()) {
            res.header(o.getHeader().getKey(), o.getHeader().getRawValue().toStringUtf8());
        }
        res.header(GatewayHeaders.DESTINATION_ENDPOINT, served);
        boolean sse = rh.getOrDefault("content-type", "").startsWith("text/event-stream");
        try (InputStream in = response.body(); OutputStream client = res.outputStream()) {
            byte[] buf = new byte[CHUNK];
            for (int n; (n = in.read(buf)) > 0; ) {
                call.send(EnvoyMessages.responseBody(ByteString.copyFrom(buf, 0, n), false));
                echo(call.next(), client, sse);
            }
            call.send(EnvoyMessages.responseBody(ByteString.EMPTY, true));
            echo(call.next(), client, sse);
        }
        call.halfClose();
    }

    private static void echo(ProcessingResponse r, OutputStream client, boolean flush) throws IOException {
        r.getResponseBody().getResponse().getBodyMutation().getStreamedResponse().getBody().writeTo(client);
        if (flush) {
            client.flush();
        }
    }

    private static void immediate(ServerResponse res, ImmediateResponse r) {
        res.status(r.getStatus().getCodeValue());
        for (HeaderValueOption o : r.getHeaders().getSetHeadersList()) {
            res.header(o.getHeader().getKey(), o.getHeader().getRawValue().toStringUtf8());
        }
        res.send(r.getBody().toByteArray());
    }

    @Override
    public void close() {
        port.close();
        upstream.shutdownNow(); // a stream still running would hold close() until it ends
        picker.shutdownNow();
        try {
            picker.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
