package dev.homing.router.http;

import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import java.util.function.Consumer;

/** One of the router's ports: a Helidon server with its routes, listening from {@link #start()} to {@link #close()}. */
public final class HttpPort implements AutoCloseable {

    private final String what;
    private final String host;
    private final int port;
    private final WebServer server;

    /** @param what the port's name in errors ("API", "admin") */
    public HttpPort(String what, String host, int port, Consumer<HttpRouting.Builder> routes) {
        this.what = what;
        this.host = host;
        this.port = port;
        this.server = WebServer.builder().host(host).port(port).shutdownHook(false).routing(routes).build();
    }

    /** @throws IllegalStateException when the port cannot listen (in use, say) */
    public void start() {
        server.start();
        // Helidon logs a failed bind and returns a stopped server rather than throwing; turn that into an error.
        if (!server.isRunning() || server.port() < 0) {
            throw new IllegalStateException("the router's " + what + " port could not listen on " + host + ":" + port
                    + " (in use?)");
        }
    }

    /** The port listened on (the one picked, when asked for port 0). */
    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.stop();
    }
}
