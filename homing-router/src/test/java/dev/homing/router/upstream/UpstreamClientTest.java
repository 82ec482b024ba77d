package dev.homing.router.upstream;

import static dev.homing.router.upstream.ScriptedPod.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The pooled HTTP/1.1 client against pods on real sockets that answer byte for byte as scripted. */
class UpstreamClientTest {

    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final byte[] BODY = "{\"model\":\"m\",\"prompt\":\"hi\"}".getBytes(StandardCharsets.UTF_8);

    private static UpstreamClient client() {
        return new UpstreamClient(SECOND, Duration.ofSeconds(5));
    }

    private static String readAll(UpstreamResponse r) throws IOException {
        try (r) {
            return new String(r.body().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static UpstreamResponse post(UpstreamClient c, ScriptedPod pod) throws IOException {
        return c.send(pod.address(), "POST", "/v1/completions", Map.of("content-type", "application/json"), BODY);
    }

    @Test
    void sendsTheBodyAsGivenAndReusesTheConnection() throws Exception {
        try (ScriptedPod pod = new ScriptedPod((r, out, s) -> {
            write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}");
            return true;
        }); UpstreamClient c = client()) {
            for (int i = 0; i < 3; i++) {
                UpstreamResponse r = post(c, pod);
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.contentLength()).isEqualTo(7);
                assertThat(r.header("CONTENT-TYPE")).isEqualTo("application/json");
                assertThat(readAll(r)).isEqualTo("{\"a\":1}");
            }
            assertThat(pod.connections).hasValue(1);
            assertThat(pod.requests).hasSize(3);
            ScriptedPod.Request first = pod.requests.getFirst();
            assertThat(first.requestLine()).isEqualTo("POST /v1/completions HTTP/1.1");
            assertThat(first.header("host")).isEqualTo(pod.address());
            assertThat(first.header("content-length")).isEqualTo(String.valueOf(BODY.length));
            assertThat(first.body()).isEqualTo(BODY);
            assertThat(c.idleConnections(pod.address())).isEqualTo(1);
        }
    }

    @Test
    void aChunkedStreamIsHandedOnChunkByChunkBeforeTheNextIsSent() throws Exception {
        CountDownLatch firstRead = new CountDownLatch(1);
        try (ScriptedPod pod = new ScriptedPod((r, out, s) -> {
            write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
            write(out, "f;ext=1\r\ndata: {\"n\":1}\n\n\r\n");
            // the second event only once the client has relayed the first: a client that waited for more would hang
            if (!firstRead.await(5, TimeUnit.SECONDS)) {
                return false;
            }
            write(out, "f\r\ndata: {\"n\":2}\n\n\r\n0\r\nX-Trailer: t\r\n\r\n");
            return true;
        }); UpstreamClient c = client()) {
            UpstreamResponse r = post(c, pod);
            assertThat(r.contentLength()).isEqualTo(-1);
            InputStream in = r.body();
            byte[] buf = new byte[4096];
            int n = in.read(buf);
            assertThat(new String(buf, 0, n, StandardCharsets.UTF_8)).isEqualTo("data: {\"n\":1}\n\n");
            firstRead.countDown();
            n = in.read(buf);
            assertThat(new String(buf, 0, n, StandardCharsets.UTF_8)).isEqualTo("data: {\"n\":2}\n\n");
            assertThat(in.read(buf)).isEqualTo(-1);
            r.close();
            // read to its end, trailers and all: the connection serves the next request
            assertThat(c.idleConnections(pod.address())).isEqualTo(1);
        }
    }

    @Test
    void aStreamClosedBeforeItsEndClosesTheConnectionSoThePodAborts() throws Exception {
        try (ScriptedPod pod = new ScriptedPod((r, out, s) -> {
            write(out, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n");
            Thread.sleep(10_000); // a long generation the client leaves
            return false;
        }); UpstreamClient c = client()) {
            UpstreamResponse r = post(c, pod);
            assertThat(r.body().read(new byte[16])).isEqualTo(5);
            r.close();
            assertThat(c.idleConnections(pod.address())).isZero();
            assertThatThrownBy(() -> r.body().read(new byte[1])).isInstanceOf(IOException.class);
        }
    }

    @Test
    void aConnectionThePodClosedWhileIdleIsReplacedWithoutResendingToIt() throws Exception {
        try (ScriptedPod pod = new ScriptedPod((r, out, s) -> {
            // keep-alive promised, then the connection closed after the answer, as a server timing out idle ones
            write(out, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
            return false;
        }); UpstreamClient c = client()) {
            assertThat(readAll(post(c, pod))).isEqualTo("ok");
            await().atMost(Duration.ofSeconds(5)).until(() -> pod.connections.get() == 1 && pod.requests.size() == 1);
            Thread.sleep(50); // let the close reach this side
            assertThat(readAll(post(c, pod))).isEqualTo("ok");
            assertThat(pod.connections).hasValue(2);
            assertThat(pod.requests).hasSize(2); // the stale connection carried nothing the pod read
        }
    }

    @Test
    void interimResponsesAreSkippedAndBodilessStatusesEndAtTheHead() throws Exception {
        try (ScriptedPod pod = new ScriptedPod((r, out, s) -> {
            if (r.requestLine().startsWith("HEAD")) {
                write(out, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n");
            } else {
                write(out, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nX-A: 1\r\nX-A: 2\r\n\r\n");
            }
            return true;
        }); UpstreamClient c = client()) {
            UpstreamResponse r = post(c, pod);
            assertThat(r.status()).isEqualTo(204);
            assertThat(r.headers().get("X-A")).containsExactly("1", "2");
            assertThat(readAll(r)).isEmpty();
            UpstreamResponse head = c.send(pod.address(), "HEAD", "/health", Map.of(), null);
            assertThat(head.status()).isEqualTo(200);
            assertThat(readAll(head)).isEmpty();
            assertThat(pod.connections).hasValue(1);
            assertThat(pod.requests.get(1).header("content-length")).isNull();
        }
    }

    @Test
    void aBodyDelimitedByTheCloseIsReadToItAndTheConnectionNotKept() throws Exception {
        try (ScriptedPod pod = new ScriptedPod((r, out, s) -> {
            write(out, "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end");
            return false;
        }); UpstreamClient c = client()) {
            assertThat(readAll(post(c, pod))).isEqualTo("until the end");
            assertThat(c.idleConnections(pod.address())).isZero();
        }
    }

    @Test
    void connectionCloseIsHonoured() throws Exception {
        try (ScriptedPod pod = new ScriptedPod((r, out, s) -> {
            write(out, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx");
            return false;
        }); UpstreamClient c = client()) {
            assertThat(readAll(post(c, pod))).isEqualTo("x");
            assertThat(c.idleConnections(pod.address())).isZero();
        }
    }

    @Test
    void aBodyFramedBothWaysIsReadAsChunkedAndItsConnectionClosed() throws Exception {
        try (ScriptedPod pod = new ScriptedPod((r, out, s) -> {
            write(out, "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n0\r\n\r\n");
            return true;
        }); UpstreamClient c = client()) {
            assertThat(readAll(post(c, pod))).isEqualTo("hello");
            assertThat(c.idleConnections(pod.address())).isZero();
        }
    }

    @Test
    void aRefusedConnectionIsAConnectFailure() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        try (UpstreamClient c = client()) {
            assertThatThrownBy(() -> c.send("127.0.0.1:" + port, "GET", "/", Map.of(), null))
                    .isInstanceOf(UpstreamConnectException.class).hasMessageContaining("127.0.0.1:" + port);
            assertThatThrownBy(() -> c.send("no-port", "GET", "/", Map.of(), null))
                    .isInstanceOf(UpstreamConnectException.class).hasMessageContaining("host:port");
        }
    }

    @Test
    void aPodThatTakesTheRequestAndSaysNothingTimesOut() throws Exception {
        try (ScriptedPod pod = new ScriptedPod((r, out, s) -> {
            Thread.sleep(10_000);
            return false;
        }); UpstreamClient c = new UpstreamClient(SECOND, Duration.ofMillis(200))) {
            assertThatThrownBy(() -> post(c, pod)).isInstanceOf(ResponseTimeoutException.class)
                    .hasMessageContaining("200 ms");
            assertThat(pod.requests).hasSize(1); // sent once: a timeout is not retried
            assertThat(c.idleConnections(pod.address())).isZero();
        }
    }

    @Test
    void aBodyThatStallsPastTheBodyTimeoutFailsAndItsConnectionIsDropped() throws Exception {
        try (ScriptedPod pod = new ScriptedPod((r, out, s) -> {
            write(out, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc");
            Thread.sleep(10_000);
            return false;
        }); UpstreamClient c = new UpstreamClient(SECOND, SECOND, Duration.ofMillis(200), 4, SECOND)) {
            UpstreamResponse r = post(c, pod);
            byte[] buf = new byte[16];
            assertThat(r.body().read(buf)).isEqualTo(3);
            assertThatThrownBy(() -> r.body().read(buf)).isInstanceOf(java.net.SocketTimeoutException.class);
            r.close();
            assertThat(c.idleConnections(pod.address())).isZero();
        }
    }

    @Test
    void malformedResponsesFailWithThePodNamed() throws Exception {
        List<String> answers = List.of("SSH-2.0-OpenSSH\r\n\r\n", "HTTP/1.1 2x0 OK\r\n\r\n",
                "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab");
        for (String answer : answers) {
            try (ScriptedPod pod = new ScriptedPod((r, out, s) -> {
                write(out, answer);
                return false;
            }); UpstreamClient c = client()) {
                assertThatThrownBy(() -> post(c, pod)).as(answer).isInstanceOf(IOException.class)
                        .hasMessageContaining(pod.address());
            }
        }
    }

    @Test
    void aBodyCutShortIsAnErrorNotAnEnd() throws Exception {
        for (String answer : List.of("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\na\r\nabc",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")) {
            try (ScriptedPod pod = new ScriptedPod((r, out, s) -> {
                write(out, answer);
                return false;
            }); UpstreamClient c = client()) {
                UpstreamResponse r = post(c, pod);
                assertThatThrownBy(() -> r.body().readAllBytes()).as(answer).isInstanceOf(IOException.class);
                r.close();
                assertThat(c.idleConnections(pod.address())).isZero();
            }
        }
    }

    @Test
    void headersWithLineBreaksAreNotSent() throws Exception {
        try (ScriptedPod pod = new ScriptedPod((r, out, s) -> {
            write(out, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
            return true;
        }); UpstreamClient c = client()) {
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("x-ok", "fine");
            headers.put("x-evil", "a\r\nx-injected: 1");
            headers.put("Host", "elsewhere");
            readAll(c.send(pod.address(), "GET", "/v1/models", headers, null));
            ScriptedPod.Request r = pod.requests.getFirst();
            assertThat(r.header("x-ok")).isEqualTo("fine");
            assertThat(r.header("x-evil")).isNull();
            assertThat(r.header("x-injected")).isNull();
            assertThat(r.header("host")).isEqualTo(pod.address());
            assertThat(r.header("content-length")).isNull(); // a GET without a body says nothing of one
        }
    }

    @Test
    void idleConnectionsAreBoundedPerPodAndExpire() throws Exception {
        CountDownLatch all = new CountDownLatch(6);
        try (ScriptedPod pod = new ScriptedPod((r, out, s) -> {
            all.countDown();
            all.await(5, TimeUnit.SECONDS); // six requests in flight at once: six connections
            write(out, "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx");
            return true;
        }); UpstreamClient c = new UpstreamClient(SECOND, Duration.ofSeconds(5), Duration.ZERO, 2,
                     Duration.ofMillis(300));
             ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                answers.add(pool.submit(() -> readAll(post(c, pod))));
            }
            for (Future<String> f : answers) {
                assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo("x");
            }
            assertThat(pod.connections).hasValue(6);
            assertThat(c.idleConnections(pod.address())).isEqualTo(2);
            await().atMost(Duration.ofSeconds(5)).until(() -> pod.clientCloses.get() >= 4);
            Thread.sleep(400); // past the idle timeout: both kept ones are closed rather than used
            assertThat(readAll(post(c, pod))).isEqualTo("x");
            assertThat(pod.connections).hasValue(7);
            c.forget(pod.address());
            assertThat(c.idleConnections(pod.address())).isZero();
        }
    }
}
