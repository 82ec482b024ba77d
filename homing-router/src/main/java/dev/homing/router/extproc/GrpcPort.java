package dev.homing.router.extproc;

import io.grpc.BindableService;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One of the router's gRPC ports (ext_proc, health): listening from {@link #start()} to {@link #close()}. Calls run on
 * the transport's threads (grpc-java's direct executor): the services here never wait on I/O there (the longest they
 * hold is the decision lock, for microseconds, when a gateway reports the endpoint that served), and a message handed
 * to another thread would cost more than the work it carries. What may wait (a decision) moves off them itself
 * ({@link StreamWork}).
 */
public final class GrpcPort implements AutoCloseable {

    /** How the port speaks: plaintext, TLS with a certificate made at start, or TLS with the given one. */
    public sealed interface Security {
        /** Plaintext ({@code --secure-serving=false}; health, which Kubernetes probes speak). */
        record Plaintext() implements Security {
        }

        /** A self-signed certificate for the names given, made at start (llm-d's default). */
        record SelfSigned(List<String> names) implements Security {
        }

        /** {@code tls.crt} and {@code tls.key} (PEM, the key PKCS#8) in a directory, as llm-d's {@code --cert-path}. */
        record Files(Path directory) implements Security {
        }
    }

    private final String what;
    private final String host;
    private final int port;
    private final Server server;
    private final Duration drain;
    private long drainSince;

    /** A port whose calls are short (health): those under way at close get {@link #SHORT_DRAIN}. */
    public GrpcPort(String what, String host, int port, Security security, int maxMessageBytes,
                    BindableService... services) {
        this(what, host, port, security, maxMessageBytes, SHORT_DRAIN, services);
    }

    /** What a port of short calls gives those under way at close before cutting them. */
    public static final Duration SHORT_DRAIN = Duration.ofSeconds(2);

    /**
     * @param what              the port's name in errors ("ext_proc", "gRPC health")
     * @param maxMessageBytes   the largest message accepted (a BUFFERED request body comes in one)
     * @param drain             how long {@link #close()} waits for the calls under way (an ext_proc stream lasts a
     *                          whole generation) before it cuts them
     */
    public GrpcPort(String what, String host, int port, Security security, int maxMessageBytes, Duration drain,
                    BindableService... services) {
        this.what = what;
        this.drain = drain;
        this.host = host;
        this.port = port;
        NettyServerBuilder b = NettyServerBuilder.forAddress(new InetSocketAddress(host, port), credentials(security))
                .directExecutor()
                .maxInboundMessageSize(maxMessageBytes)
                .permitKeepAliveTime(10, TimeUnit.SECONDS)
                .permitKeepAliveWithoutCalls(true);
        for (BindableService s : services) {
            b.addService(s);
        }
        this.server = b.build();
    }

    private static ServerCredentials credentials(Security security) {
        try {
            return switch (security) {
                case Security.Plaintext p -> InsecureServerCredentials.create();
                case Security.SelfSigned s -> {
                    SelfSignedCertificate c = SelfSignedCertificate.create(s.names(), Instant.now());
                    yield TlsServerCredentials.create(
                            new ByteArrayInputStream(c.certificatePem().getBytes(StandardCharsets.US_ASCII)),
                            new ByteArrayInputStream(c.privateKeyPem().getBytes(StandardCharsets.US_ASCII)));
                }
                case Security.Files f -> {
                    Path crt = f.directory().resolve("tls.crt");
                    Path key = f.directory().resolve("tls.key");
                    if (!java.nio.file.Files.isReadable(crt) || !java.nio.file.Files.isReadable(key)) {
                        throw new IllegalArgumentException("--cert-path " + f.directory()
                                + ": expected readable tls.crt and tls.key there");
                    }
                    yield TlsServerCredentials.create(crt.toFile(), key.toFile());
                }
            };
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the TLS certificate: " + e.getMessage(), e);
        }
    }

    /** @throws IllegalStateException when the port cannot listen (in use, say) */
    public void start() {
        try {
            server.start();
        } catch (IOException e) {
            throw new IllegalStateException("the router's " + what + " port could not listen on " + host + ":" + port
                    + " (in use?): " + e.getMessage(), e);
        }
    }

    /** The port listened on (the one picked, when asked for port 0). */
    public int port() {
        return server.getPort();
    }

    /**
     * Stops taking calls: new ones are refused at once, clients are sent GOAWAY, calls under way go on. The drain
     * timeout runs from here.
     */
    public synchronized void beginDrain() {
        if (drainSince == 0) {
            drainSince = System.nanoTime() | 1; // never 0: 0 means not begun
            server.shutdown();
        }
    }

    /**
     * Stops taking calls (new ones are refused at once), lets those under way end for up to the drain timeout since
     * {@link #beginDrain} (or now), then cuts them.
     */
    @Override
    public void close() {
        beginDrain();
        long left = drain.toNanos() - (System.nanoTime() - drainSince);
        try {
            if (!server.awaitTermination(Math.max(0, left), TimeUnit.NANOSECONDS)) {
                server.shutdownNow();
                server.awaitTermination(2, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            server.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
