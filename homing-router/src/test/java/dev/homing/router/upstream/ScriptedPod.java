package dev.homing.router.upstream;

import static org.awaitility.Awaitility.await;

import dev.homing.core.config.ConfigException;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pod on a real loopback socket that answers each request it reads with what its script writes, byte for byte:
 * the framings, interim responses, early closes and stalls a real server may produce, which a well-behaved one would
 * not show on demand.
 */
public final class ScriptedPod implements AutoCloseable {

    /** What to do with one request: write to the connection, or close it; return false to close after. */
    public interface Script {
        boolean answer(Request request, OutputStream out, Socket socket) throws IOException, InterruptedException;
    }

    public record Request(int connection, String head, byte[] body) {
        public String requestLine() {
            return head.substring(0, head.indexOf("\r\n"));
        }

        public String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).strip();
                }
            }
            return null;
        }
    }

    private final ServerSocket server;
    private final Script script;
    public final AtomicInteger connections = new AtomicInteger();
    public final List<Request> requests = new CopyOnWriteArrayList<>();
    /** Connections the client closed (the pod read the end of its stream). */
    public final AtomicInteger clientCloses = new AtomicInteger();

    public ScriptedPod(Script script) throws IOException {
        this.server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        this.script = script;
        Thread.ofVirtual().start(this::accept);
    }

    public String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /**
     * Answers a router's scrapes as an idle vLLM pod serving {@code model} ({@code GET /v1/models} and
     * {@code GET /metrics}, {@code GET /health}); false for any other request, which the script then answers itself.
     */
    public static boolean answeredScrape(Request r, OutputStream out, String model) throws IOException {
        String body;
        if (r.requestLine().startsWith("GET /v1/models")) {
            body = "{\"object\":\"list\",\"data\":[{\"id\":\"" + model + "\",\"object\":\"model\"}]}";
        } else if (r.requestLine().startsWith("GET /health")) {
            body = ""; // vLLM's: 200 and nothing while its engine runs
        } else if (r.requestLine().startsWith("GET /metrics")) {
            body = "vllm:num_requests_running{model_name=\"" + model + "\"} 0\n"
                    + "vllm:num_requests_waiting{model_name=\"" + model + "\"} 0\n";
        } else {
            return false;
        }
        write(out, "HTTP/1.1 200 OK\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);
        return true;
    }

    /** A router on ephemeral loopback ports with this pod as its one endpoint, {@code name}, once it knows its models. */
    public RouterServer routerInFront(String name) throws ConfigException {
        return routerInFront(name, o -> { });
    }

    /** As {@link #routerInFront(String)}, with the options changed as {@code change} says. */
    public RouterServer routerInFront(String name, java.util.function.Consumer<RouterOptions.Builder> change)
            throws ConfigException {
        RouterServer router = RouterServer.start(RouterOptions.defaults(List.of(new Endpoint(name, "127.0.0.1",
                server.getLocalPort()))).with(o -> {
                    o.port = 0;
                    o.adminPort = 0;
                    change.accept(o);
                }));
        await().atMost(Duration.ofSeconds(10)).until(() -> router.catalog().status(name).modelsKnown());
        return router;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                int id = connections.incrementAndGet();
                Thread.ofVirtual().start(() -> serve(id, s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(int id, Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            while (true) {
                String head = readHead(in);
                if (head == null) {
                    clientCloses.incrementAndGet();
                    return;
                }
                byte[] body = readBody(in, head);
                Request r = new Request(id, head, body);
                requests.add(r);
                if (!script.answer(r, out, s)) {
                    return;
                }
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the client went away mid-answer
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int state = 0;
        while (state < 4) {
            int c = in.read();
            if (c < 0) {
                return null;
            }
            b.write(c);
            state = (c == '\r' && (state == 0 || state == 2)) || (c == '\n' && (state == 1 || state == 3))
                    ? state + 1 : c == '\r' ? 1 : 0;
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    private static byte[] readBody(InputStream in, String head) throws IOException {
        int length = 0;
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).strip());
            }
        }
        return in.readNBytes(length);
    }

    public static void write(OutputStream out, String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
