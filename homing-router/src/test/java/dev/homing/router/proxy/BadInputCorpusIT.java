package dev.homing.router.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.router.fixtures.TestCluster;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad-input corpus ({@code bad-input/corpus.yaml}) against a router in front of one simulated pod: each case on a
 * connection of its own to 127.0.0.1, answered as the corpus expects (an error in OpenAI's shape, the connection kept
 * or closed), and losing nothing: no request is left in flight and a good request right after is served.
 */
class BadInputCorpusIT {

    private static final BadInputCorpus CORPUS = BadInputCorpus.load();
    /**
     * The longest any read waits: the slowloris cases' 1 s request-read timeout with room to spare on a busy machine.
     * It bounds every case, so a router that never answers fails the case instead of hanging the suite.
     */
    private static final int READ_TIMEOUT_MILLIS = 5_000;
    /** How far apart the bytes of a slow piece go: a slowloris client, each byte well within an idle timeout. */
    private static final long SLOW_BYTE_MILLIS = 500;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static TestCluster cluster;

    @BeforeAll
    static void start() {
        cluster = TestCluster.start(1, b -> b, o -> o.with(x -> {
            x.maxBodyBytes = CORPUS.maxBodyBytes();
            // the request-read timeout the slowloris cases assume: a whole request within 1 s
            x.requestReadTimeout = Duration.ofSeconds(1);
        }));
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    static List<BadInputCase> corpus() {
        return CORPUS.cases();
    }

    @Test
    void theCorpusHasAtLeast50Cases() {
        assertThat(CORPUS.cases()).hasSizeGreaterThanOrEqualTo(50);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void isAnsweredAsExpectedAndLosesNothing(BadInputCase c) throws Exception {
        Thread writer;
        try (Socket socket = connect()) {
            writer = Thread.ofVirtual().name("corpus-client").start(() -> write(socket, c));
            answer(c, socket);
        }
        writer.join(Duration.ofSeconds(2)); // the closed socket ends it within one slow byte
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(cluster.routerInFlight()).as("requests in flight after " + c.name()).isZero();
            assertThat(cluster.routerPendingPrefill()).as("prefill tokens pending after " + c.name()).isZero();
        });
        try (Socket socket = connect()) {
            assertGoodRequestServed(socket, "on a new connection after " + c.name());
        }
    }

    /** Writes the case's pieces as its client does; a connection the router closed early ends the writing. */
    private static void write(Socket socket, BadInputCase c) {
        try {
            OutputStream out = socket.getOutputStream();
            for (BadInputCase.Piece p : c.pieces()) {
                if (!p.slowly()) {
                    out.write(p.bytes());
                    out.flush();
                    continue;
                }
                for (byte b : p.bytes()) {
                    out.write(b);
                    out.flush();
                    Thread.sleep(SLOW_BYTE_MILLIS);
                }
            }
            if (c.client() == BadInputCase.Client.HALF_CLOSE) {
                socket.shutdownOutput();
            }
        } catch (IOException e) {
            // the router stopped taking bytes (it answered and closed, say): what it answered is what is checked
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void answer(BadInputCase c, Socket socket) throws IOException {
        BadInputCase.Expected e = c.expected();
        String about = c.name() + (c.why().isEmpty() ? "" : " (" + c.why() + ")");
        InputStream in = socket.getInputStream();
        RawResponse r;
        try {
            r = RawResponse.read(in);
        } catch (RawResponse.ClosedBeforeAResponse closed) {
            assertThat(e.status()).as(() -> about + ": the connection was " + closed.getMessage()
                    + " without a response").isNull();
            return;
        } catch (SocketTimeoutException t) {
            throw new AssertionError(about + ": no answer within " + READ_TIMEOUT_MILLIS + " ms", t);
        }
        assertThat(e.status()).as(() -> about + ": expected the connection closed without a response, got " + r)
                .isNotNull();
        assertThat(r.status()).as(() -> about + ": " + r).isEqualTo(e.status());
        if (e.error()) {
            assertOpenAiError(about, r, e);
        }
        assertThat(r.headers().containsKey(Exchange.POD_HEADER))
                .as(() -> about + ": " + (e.forwarded() ? "expected the pod's answer, got the router's: "
                        : "expected the router's own answer (the request never forwarded), got the pod's: ") + r)
                .isEqualTo(e.forwarded());
        e.headers().forEach((name, value) -> assertThat(r.headers().get(name))
                .as(() -> about + ": header " + name + " of " + r).isEqualToIgnoringCase(value));
        switch (e.close()) {
            case YES -> assertClosed(about, in);
            case NO -> assertGoodRequestServed(socket, "on the same connection after " + c.name());
            case ANY -> { }
        }
    }

    private static void assertOpenAiError(String about, RawResponse r, BadInputCase.Expected e) {
        assertThat(r.headers().get("content-type")).as(() -> about + ": " + r).startsWith("application/json");
        JsonNode error;
        try {
            error = JSON.readTree(r.body()).path("error");
        } catch (IOException notJson) {
            throw new AssertionError(about + ": the error is not JSON: " + r, notJson);
        }
        assertThat(error.path("message").asText()).as(() -> about + ": message of " + r).isNotBlank();
        assertThat(error.path("code").asInt()).as(() -> about + ": code of " + r).isEqualTo(r.status());
        if (e.type() == null) {
            assertThat(error.path("type").asText()).as(() -> about + ": type of " + r).isNotBlank();
        } else {
            assertThat(error.path("type").asText()).as(() -> about + ": type of " + r).isEqualTo(e.type());
        }
        assertThat(error.has("param")).as(() -> about + ": param of " + r).isTrue();
        if (e.param() == null) {
            assertThat(error.get("param").isNull()).as(() -> about + ": param should be null in " + r).isTrue();
        } else {
            assertThat(error.get("param").asText()).as(() -> about + ": param of " + r).isEqualTo(e.param());
        }
    }

    /** The connection ends after the answer: read gives its end (or a reset, which ends it as well). */
    private static void assertClosed(String about, InputStream in) throws IOException {
        try {
            int next = in.read();
            assertThat(next).as(() -> about + ": expected the connection closed after the answer, it went on")
                    .isEqualTo(-1);
        } catch (SocketException reset) {
            // closed with a reset: closed all the same
        } catch (SocketTimeoutException t) {
            throw new AssertionError(about + ": the connection is still open " + READ_TIMEOUT_MILLIS
                    + " ms after the answer; expected it closed", t);
        }
    }

    private static void assertGoodRequestServed(Socket socket, String when) throws IOException {
        String body = "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"still here\",\"max_tokens\":1}";
        String request = "POST /v1/completions HTTP/1.1\r\nHost: r\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body;
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        RawResponse r;
        try {
            r = RawResponse.read(socket.getInputStream());
        } catch (RawResponse.ClosedBeforeAResponse | SocketTimeoutException e) {
            throw new AssertionError("a good request " + when + " got no answer: " + e.getMessage(), e);
        }
        assertThat(r.status()).as(() -> "a good request " + when + ": " + r).isEqualTo(200);
    }

    private static Socket connect() throws IOException {
        Socket s = new Socket("127.0.0.1", cluster.router().port());
        s.setSoTimeout(READ_TIMEOUT_MILLIS);
        return s;
    }
}
