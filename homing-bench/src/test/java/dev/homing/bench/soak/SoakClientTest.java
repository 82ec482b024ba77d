package dev.homing.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How a soak client judges what a server did, against a server on a loopback socket that answers each request as a
 * test scripts it: lost means no byte of a response came; cut, a 2xx begun and not finished.
 */
class SoakClientTest {

    private static final SoakRequest STREAM = new SoakRequest(post("{\"stream\":true}"), true, false);
    private static final SoakRequest WHOLE = new SoakRequest(post("{}"), false, false);
    private static final String SSE_HEAD = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n";

    private ServerSocket server;

    /** What the scripted server does with one request on a connection: answer it (or not), and say whether to go on. */
    interface Answer {
        boolean answer(OutputStream out, Socket s) throws IOException;
    }

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aStreamEndingWithDoneIsAnswered() throws Exception {
        InetSocketAddress at = serve(List.of((out, s) -> {
            write(out, SSE_HEAD + chunk("data: {\"choices\":[{\"text\":\" a\"}]}\n\n")
                    + chunk("data: [DONE]\n\n") + "0\r\n\r\n");
            return true;
        }));
        try (SoakClient c = new SoakClient(at, 5_000)) {
            Outcome o = c.exchange(STREAM);
            assertThat(o.kind()).isEqualTo(Outcome.Kind.OK);
            assertThat(o.status()).isEqualTo(200);
        }
    }

    @Test
    void aResponseReadAcrossManySmallReadsIsReadWhole() throws Exception {
        String response = SSE_HEAD + chunk("data: {\"choices\":[{\"text\":\" a\"}]}\n\n") + chunk("data: [DONE]\n\n")
                + "0\r\n\r\n";
        InetSocketAddress at = serve(List.of((out, s) -> {
            for (byte b : response.getBytes(StandardCharsets.ISO_8859_1)) {
                out.write(b); // a byte a write: lines, sizes and [DONE] split across reads
                out.flush();
            }
            return true;
        }));
        try (SoakClient c = new SoakClient(at, 5_000)) {
            assertThat(c.exchange(STREAM).kind()).isEqualTo(Outcome.Kind.OK);
        }
    }

    @Test
    void aStreamEndedByAnErrorEventIsCutNotLost() throws Exception {
        InetSocketAddress at = serve(List.of((out, s) -> {
            write(out, SSE_HEAD + chunk("data: {\"choices\":[{\"text\":\" a\"}]}\n\n")
                    + chunk("data: {\"error\":{\"message\":\"The model server stopped mid-stream.\",\"code\":502}}\n\n")
                    + "0\r\n\r\n");
            return true;
        }));
        try (SoakClient c = new SoakClient(at, 5_000)) {
            Outcome o = c.exchange(STREAM);
            assertThat(o.kind()).isEqualTo(Outcome.Kind.CUT);
            assertThat(o.why()).isEqualTo("an error event, no [DONE]");
        }
    }

    @Test
    void aStreamBrokenAfterItsHeadIsCut() throws Exception {
        InetSocketAddress at = serve(List.of((out, s) -> {
            write(out, SSE_HEAD + chunk("data: {\"choices\":[{\"text\":\" a\"}]}\n\n"));
            return false;
        }));
        try (SoakClient c = new SoakClient(at, 5_000)) {
            Outcome o = c.exchange(STREAM);
            assertThat(o.kind()).isEqualTo(Outcome.Kind.CUT);
            assertThat(o.why()).isEqualTo("closed mid-stream");
        }
    }

    @Test
    void aWholeBodyIsAnsweredAndTheConnectionKept() throws Exception {
        Answer whole = (out, s) -> {
            write(out, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
            return true;
        };
        InetSocketAddress at = serve(List.of(whole, whole));
        try (SoakClient c = new SoakClient(at, 5_000)) {
            assertThat(c.exchange(WHOLE).kind()).isEqualTo(Outcome.Kind.OK);
            assertThat(c.exchange(WHOLE).kind()).isEqualTo(Outcome.Kind.OK); // the script has one connection
        }
    }

    @Test
    void aBodyShortOfItsLengthIsCut() throws Exception {
        InetSocketAddress at = serve(List.of((out, s) -> {
            write(out, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"id\"");
            return false;
        }));
        try (SoakClient c = new SoakClient(at, 5_000)) {
            Outcome o = c.exchange(WHOLE);
            assertThat(o.kind()).isEqualTo(Outcome.Kind.CUT);
            assertThat(o.why()).isEqualTo("closed mid-body");
        }
    }

    @Test
    void anErrorStatusIsAnAnswer() throws Exception {
        InetSocketAddress at = serve(List.of((out, s) -> {
            write(out, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 2\r\n\r\n{}");
            return true;
        }));
        try (SoakClient c = new SoakClient(at, 5_000)) {
            Outcome o = c.exchange(STREAM);
            assertThat(o.kind()).isEqualTo(Outcome.Kind.ERROR);
            assertThat(o.status()).isEqualTo(502);
        }
    }

    @Test
    void aConnectionClosedBeforeAnyByteLosesTheRequest() throws Exception {
        InetSocketAddress at = serve(List.of((out, s) -> false));
        try (SoakClient c = new SoakClient(at, 5_000)) {
            Outcome o = c.exchange(WHOLE);
            assertThat(o.kind()).isEqualTo(Outcome.Kind.LOST);
            assertThat(o.status()).isZero();
            assertThat(o.why()).isEqualTo("closed before any byte");
        }
    }

    @Test
    void aKeptConnectionClosedBetweenRequestsLosesTheNextAndSaysSo() throws Exception {
        InetSocketAddress at = serve(List.of((out, s) -> {
            write(out, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
            return true;
        }, (out, s) -> false));
        try (SoakClient c = new SoakClient(at, 5_000)) {
            assertThat(c.exchange(WHOLE).kind()).isEqualTo(Outcome.Kind.OK);
            Outcome o = c.exchange(WHOLE);
            assertThat(o.kind()).isEqualTo(Outcome.Kind.LOST);
            assertThat(o.why()).endsWith("before any byte (kept connection)");
        }
    }

    @Test
    void aSilentServerLosesTheRequestAtTheReadTimeout() throws Exception {
        InetSocketAddress at = serve(List.of((out, s) -> {
            try {
                Thread.sleep(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        }));
        try (SoakClient c = new SoakClient(at, 200)) {
            Outcome o = c.exchange(WHOLE);
            assertThat(o.kind()).isEqualTo(Outcome.Kind.LOST);
            assertThat(o.why()).isEqualTo("timed out before any byte");
        }
    }

    @Test
    void aRefusedConnectionLosesTheRequest() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        try (SoakClient c = new SoakClient(new InetSocketAddress("127.0.0.1", port), 5_000)) {
            Outcome o = c.exchange(WHOLE);
            assertThat(o.kind()).isEqualTo(Outcome.Kind.LOST);
            assertThat(o.why()).isEqualTo("connect: refused");
        }
    }

    /** One connection, answering its requests as {@code answers} say in turn; closed when one says so. */
    private InetSocketAddress serve(List<Answer> answers) throws IOException {
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            try (Socket s = server.accept()) {
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                for (Answer a : answers) {
                    readRequest(in);
                    if (!a.answer(out, s)) {
                        return;
                    }
                }
            } catch (IOException ignored) {
                // the test is over
            }
        });
        return new InetSocketAddress("127.0.0.1", server.getLocalPort());
    }

    private static void readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed");
            }
            head.write(b);
        }
        String h = head.toString(StandardCharsets.ISO_8859_1);
        int at = h.toLowerCase().indexOf("content-length:");
        int length = Integer.parseInt(h.substring(at + 15, h.indexOf("\r\n", at)).strip());
        in.readNBytes(length);
    }

    private static void write(OutputStream out, String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    private static String chunk(String data) {
        return Integer.toHexString(data.length()) + "\r\n" + data + "\r\n";
    }

    private static byte[] post(String json) {
        return dev.homing.bench.dataplane.RequestBytes.postJson("/v1/completions", json);
    }
}
