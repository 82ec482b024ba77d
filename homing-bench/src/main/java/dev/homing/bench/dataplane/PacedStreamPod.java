package dev.homing.bench.dataplane;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pod that streams slowly: every completion is answered as vLLM streams one, {@code events} SSE events in chunks
 * of their own, one every {@code interval}, then the usage event and {@code [DONE]}, however many are open at once
 * (a virtual thread a connection; no batch slows it, so any gap a client sees beyond the interval is the proxy's).
 * {@code GET /metrics} and {@code /v1/models} answer as an idle vLLM pod's, for the router's scraper.
 */
public final class PacedStreamPod implements AutoCloseable {

    private final ServerSocket server;
    private final int events;
    private final long intervalNanos;
    private final String models;
    private final String metrics;
    private final AtomicInteger open = new AtomicInteger();

    public PacedStreamPod(int events, Duration interval, String models, String metrics) throws IOException {
        this.server = new ServerSocket(0, 4096, InetAddress.getLoopbackAddress());
        this.events = events;
        this.intervalNanos = interval.toNanos();
        this.models = models;
        this.metrics = metrics;
        Thread.ofVirtual().name("paced-pod-accept").start(this::accept);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Streams being written now. */
    public int openStreams() {
        return open.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                Thread.ofVirtual().start(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            s.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            for (String head; (head = head(in)) != null; ) {
                in.skipNBytes(contentLength(head));
                String target = head.substring(head.indexOf(' ') + 1, head.indexOf(' ', head.indexOf(' ') + 1));
                if (head.startsWith("GET ")) {
                    String body = target.startsWith("/metrics") ? metrics : models;
                    fixed(out, target.startsWith("/metrics") ? "text/plain" : "application/json", body);
                } else {
                    stream(out);
                }
            }
        } catch (IOException | InterruptedException e) {
            // the client went away: the stream ends here, as vLLM aborts
        }
    }

    private void stream(OutputStream out) throws IOException, InterruptedException {
        open.incrementAndGet();
        try {
            write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n");
            long next = System.nanoTime();
            for (int i = 0; i < events; i++) {
                next += intervalNanos;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(Duration.ofNanos(wait));
                }
                chunk(out, "data: {\"id\":\"cmpl-paced\",\"object\":\"text_completion\",\"created\":1765000000,"
                        + "\"model\":\"bench-model\",\"choices\":[{\"index\":0,\"text\":\" tok" + i
                        + "\",\"logprobs\":null,\"finish_reason\":null}]}\n\n");
            }
            chunk(out, "data: {\"id\":\"cmpl-paced\",\"object\":\"text_completion\",\"created\":1765000000,"
                    + "\"model\":\"bench-model\",\"choices\":[],\"usage\":{\"prompt_tokens\":16,\"total_tokens\":"
                    + (16 + events) + ",\"completion_tokens\":" + events + "}}\n\n");
            chunk(out, "data: [DONE]\n\n");
            write(out, "0\r\n\r\n");
        } finally {
            open.decrementAndGet();
        }
    }

    private static void chunk(OutputStream out, String data) throws IOException {
        byte[] b = data.getBytes(StandardCharsets.UTF_8);
        write(out, Integer.toHexString(b.length) + "\r\n" + data + "\r\n");
    }

    private static void fixed(OutputStream out, String type, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        write(out, "HTTP/1.1 200 OK\r\nContent-Type: " + type + "\r\nContent-Length: " + b.length + "\r\n\r\n"
                + body);
    }

    private static void write(OutputStream out, String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(512);
        int matched = 0;
        while (matched < 4) {
            int c = in.read();
            if (c < 0) {
                return null;
            }
            b.write(c);
            matched = c == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : c == '\r' ? 1 : 0;
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    private static int contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                return Integer.parseInt(line.substring(15).strip());
            }
        }
        return 0;
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
