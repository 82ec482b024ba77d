package dev.homing.router.proxy;

import static dev.homing.router.upstream.ScriptedPod.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import dev.homing.router.upstream.ScriptedPod;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The API port's HTTP/1.1 as clients speak it, on raw sockets: a body that comes after its head, pipelined requests,
 * {@code Expect: 100-continue}, a chunked body over the limit, a malformed request; and the pod's side: a response
 * read until the pod closes, a kept connection the pod closed while idle. Each ends with nothing left in flight.
 */
class DataPlaneIT {

    private static final String MODEL = "m";

    /** A pod that answers each completion with the body it got, so a response tells which request it answers. */
    private static ScriptedPod echoPod() throws IOException {
        return new ScriptedPod((r, out, s) -> {
            if (ScriptedPod.answeredScrape(r, out, MODEL)) {
                return true;
            }
            write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + r.body().length
                    + "\r\n\r\n" + new String(r.body(), StandardCharsets.ISO_8859_1));
            return true;
        });
    }

    private static String completion(String prompt) {
        return "{\"model\":\"" + MODEL + "\",\"prompt\":\"" + prompt + "\",\"max_tokens\":3}";
    }

    private static String post(String body, String extraHeaders) {
        return "POST /v1/completions HTTP/1.1\r\nHost: r\r\nContent-Type: application/json\r\n" + extraHeaders
                + "Content-Length: " + body.length() + "\r\n\r\n";
    }

    /** What a test says to a router in front of a pod, on one client connection. */
    private interface Conversation {
        void talk(RouterServer router, Socket client, ScriptedPod pod) throws Exception;
    }

    /** A router in front of {@code pod} (its options changed as {@code options} says), and a client connection to it. */
    private static void through(ScriptedPod pod, Consumer<RouterOptions.Builder> options, Conversation conversation)
            throws Exception {
        try (pod; RouterServer router = pod.routerInFront("p1", options);
             Socket client = new Socket("127.0.0.1", router.port())) {
            client.setSoTimeout(10_000);
            conversation.talk(router, client, pod);
        }
    }

    private static void through(ScriptedPod pod, Conversation conversation) throws Exception {
        through(pod, o -> { }, conversation);
    }

    @Test
    void aBodyThatComesAfterItsHeadIsWaitedFor() throws Exception {
        through(echoPod(), (router, c, pod) -> {
            String body = completion("late body");
            write(c.getOutputStream(), post(body, ""));
            Thread.sleep(200); // the head is read and answered with a read for more before the body arrives
            write(c.getOutputStream(), body);
            Response r = Response.read(c.getInputStream());
            assertThat(r.status).isEqualTo(200);
            assertThat(r.body).isEqualTo(body);
            assertNothingInFlight(router);
        });
    }

    @Test
    void pipelinedRequestsAreAnsweredInTheirOrder() throws Exception {
        through(echoPod(), (router, c, pod) -> {
            StringBuilder all = new StringBuilder();
            for (int i = 0; i < 5; i++) {
                String body = completion("request " + i);
                all.append(post(body, "")).append(body);
            }
            all.append("GET /health HTTP/1.1\r\nHost: r\r\n\r\n");
            write(c.getOutputStream(), all.toString()); // one write: the router reads them together
            InputStream in = c.getInputStream();
            for (int i = 0; i < 5; i++) {
                Response r = Response.read(in);
                assertThat(r.status).isEqualTo(200);
                assertThat(r.body).contains("request " + i);
            }
            assertThat(Response.read(in).status).isEqualTo(200);
            assertNothingInFlight(router);
        });
    }

    @Test
    void expectContinueIsAnsweredBeforeTheBody() throws Exception {
        through(echoPod(), (router, c, pod) -> {
            String body = completion("after continue");
            write(c.getOutputStream(), post(body, "Expect: 100-continue\r\n"));
            InputStream in = c.getInputStream();
            assertThat(Response.read(in).status).isEqualTo(100);
            write(c.getOutputStream(), body);
            Response r = Response.read(in);
            assertThat(r.status).isEqualTo(200);
            assertThat(r.body).isEqualTo(body);
            assertThat(pod.requests.stream().filter(q -> q.requestLine().startsWith("POST"))
                    .allMatch(q -> q.header("expect") == null)).isTrue(); // a hop's own: not forwarded
        });
    }

    @Test
    void aChunkedBodyOverTheLimitIs413AndTheConnectionCloses() throws Exception {
        through(echoPod(), o -> o.maxBodyBytes = 1000, (router, c, pod) -> {
            OutputStream out = c.getOutputStream();
            write(out, "POST /v1/completions HTTP/1.1\r\nHost: r\r\nTransfer-Encoding: chunked\r\n\r\n");
            String chunk = "x".repeat(600);
            write(out, Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n");
            write(out, Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n");
            InputStream in = c.getInputStream();
            Response r = Response.read(in);
            assertThat(r.status).isEqualTo(413);
            assertThat(r.body).contains("\"error\"");
            assertThat(in.read()).isEqualTo(-1); // the rest of that body cannot be told from a next request
            assertThat(pod.requests).noneMatch(q -> q.requestLine().startsWith("POST"));
            assertNothingInFlight(router);
        });
    }

    @Test
    void aMalformedRequestIs400InOpenAisShape() throws Exception {
        through(echoPod(), (router, c, pod) -> {
            write(c.getOutputStream(), "POST /v1/completions HTTP/1.1\r\nHost: r\r\nContent-Length: nine\r\n\r\n");
            Response r = Response.read(c.getInputStream());
            assertThat(r.status).isEqualTo(400);
            assertThat(r.body).contains("\"error\"").contains("BadRequestError").contains("Malformed request");
        });
    }

    @Test
    void aResponseReadUntilThePodClosesIsRelayedWhole() throws Exception {
        String text = "{\"id\":\"cmpl-1\",\"usage\":{\"prompt_tokens\":2,\"completion_tokens\":3}}";
        through(new ScriptedPod((r, out, s) -> {
            if (ScriptedPod.answeredScrape(r, out, MODEL)) {
                return true;
            }
            write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n" + text);
            return false; // the close ends the body
        }), (router, c, pod) -> {
            String body = completion("x");
            write(c.getOutputStream(), post(body, "") + body);
            Response r = Response.read(c.getInputStream());
            assertThat(r.status).isEqualTo(200);
            assertThat(r.body).isEqualTo(text);
            assertNothingInFlight(router);
        });
    }

    @Test
    void aKeptConnectionThePodClosedIsReplacedWithoutCountingAgainstIt() throws Exception {
        Set<Integer> served = ConcurrentHashMap.newKeySet();
        through(new ScriptedPod((r, out, s) -> {
            if (ScriptedPod.answeredScrape(r, out, MODEL)) {
                return true;
            }
            if (!served.add(r.connection())) {
                return false; // read the request, then close as a pod whose keep-alive ran out does
            }
            write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
            return true;
        }), (router, c, pod) -> {
            for (int i = 0; i < 3; i++) {
                String body = completion("again " + i);
                write(c.getOutputStream(), post(body, "") + body);
                Response r = Response.read(c.getInputStream());
                assertThat(r.status).as("request %d", i).isEqualTo(200);
            }
            // each request after the first found its kept connection closed by the pod and was sent once more
            assertThat(pod.requests.stream().filter(q -> q.requestLine().startsWith("POST")).count()).isEqualTo(5);
            assertNothingInFlight(router);
        });
    }

    @Test
    void aKeptConnectionIdleLongerThanTheIdleTimeoutIsClosed() throws Exception {
        through(echoPod(), (router, c, pod) -> {
            String body = completion("then idle");
            write(c.getOutputStream(), post(body, "") + body);
            assertThat(Response.read(c.getInputStream()).status).isEqualTo(200);
            int closedBefore = pod.clientCloses.get();
            // kept for the next request, then let go after 4 s unused (under vLLM's 5 s keep-alive), swept each second
            await().atLeast(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(8))
                    .until(() -> pod.clientCloses.get() > closedBefore);
        });
    }

    @Test
    void aClientThatDoesNotReadStopsTheRouterReadingThePod() throws Exception {
        long body = 256L << 20; // far more than the sockets' and the router's buffers together
        AtomicLong written = new AtomicLong();
        byte[] piece = ("data: " + "x".repeat(64 * 1024 - 8) + "\n\n").getBytes(StandardCharsets.ISO_8859_1);
        through(new ScriptedPod((r, out, s) -> {
            if (ScriptedPod.answeredScrape(r, out, MODEL)) {
                return true;
            }
            write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
            String size = Integer.toHexString(piece.length) + "\r\n";
            while (written.get() < body) {
                out.write(size.getBytes(StandardCharsets.ISO_8859_1));
                out.write(piece);
                out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
                written.addAndGet(piece.length);
            }
            return false;
        }), (router, c, pod) -> {
            String req = completion("flood");
            write(c.getOutputStream(), post(req, "") + req);
            c.getInputStream().read(); // the response has begun; from here the client reads nothing
            Thread.sleep(1500);
            long stalled = written.get();
            Thread.sleep(500);
            // the pod's writes stopped where the socket buffers are full: the router holds no backlog of its own
            assertThat(written.get()).isEqualTo(stalled).isLessThan(body / 4);
        });
    }

    private static void assertNothingInFlight(RouterServer router) {
        await().atMost(Duration.ofSeconds(5)).until(() -> router.pool().snapshot().endpoints().stream()
                .allMatch(e -> e.inFlightRequests() == 0));
    }

    /** A response read off a socket: its status and, when it has one, its body (by length or chunks). */
    private record Response(int status, String body) {

        static Response read(InputStream in) throws IOException {
            String head = line(in);
            int status = Integer.parseInt(head.split(" ")[1]);
            long length = -1;
            boolean chunked = false;
            for (String l; !(l = line(in)).isEmpty(); ) {
                String lower = l.toLowerCase();
                if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(l.substring(15).strip());
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                }
            }
            if (status < 200) {
                return new Response(status, "");
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            if (chunked) {
                for (int size; (size = Integer.parseInt(line(in).split(";")[0].strip(), 16)) > 0; ) {
                    body.write(in.readNBytes(size));
                    line(in);
                }
                line(in);
            } else if (length > 0) {
                body.write(in.readNBytes((int) length));
            }
            return new Response(status, body.toString(StandardCharsets.UTF_8));
        }

        private static String line(InputStream in) throws IOException {
            StringBuilder b = new StringBuilder();
            for (int c; (c = in.read()) != '\n'; ) {
                if (c < 0) {
                    throw new IOException("closed mid-response after: " + b);
                }
                if (c != '\r') {
                    b.append((char) c);
                }
            }
            return b.toString();
        }
    }
}
