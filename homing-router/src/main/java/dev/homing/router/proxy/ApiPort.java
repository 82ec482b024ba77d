package dev.homing.router.proxy;

import dev.homing.core.director.Decision;
import dev.homing.core.director.Director;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.time.Ticker;
import dev.homing.router.auth.Access;
import dev.homing.router.flow.FlowGate;
import dev.homing.router.http.RequestIntake;
import dev.homing.router.metrics.RequestMetrics;
import dev.homing.router.outlier.PodHealth;
import dev.homing.router.scrape.EndpointCatalog;
import dev.homing.router.upstream.UpstreamClient;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * The API port: an OpenAI-compatible HTTP/1.1 server whose requests are placed by the director and forwarded to the
 * pods. Client and pod connections alike run on a few event loops (one per core): a request's bytes are read, judged,
 * sent on and relayed back on one thread, with no thread per connection or stream, so thousands of open streams cost
 * their buffers and little else.
 */
public final class ApiPort implements AutoCloseable {

    /**
     * Per-request settings of the data plane.
     *
     * @param responseTimeout longest wait for a pod's response head
     * @param idleTimeout     longest wait for a response's next bytes once its head is in
     * @param retryBudget     busy answers (429, 503) retried on another pod, at most this per cent of the requests
     *                        under way (Envoy's retry budget)
     * @param requestReadTimeout longest a client may take to send a whole request (408 after); zero for none
     */
    public record Settings(String host, int port, Duration connectTimeout, Duration responseTimeout,
                           Duration idleTimeout, int maxAttempts, double retryBudget, int eventLoops,
                           Duration requestReadTimeout) {
    }

    /** nginx's and Node's limits: a longer request line is 414, a larger header block 431. */
    static final int MAX_REQUEST_LINE = 8 * 1024;
    static final int MAX_REQUEST_HEAD = 16 * 1024;
    /** How long a closing port lets its loops finish what they hold (closing the connections left). */
    private static final long SHUTDOWN_SECONDS = 5;

    /** A virtual thread for each decision that may block: blocking there holds no event loop up. */
    private static final Executor DECISION_THREADS = task -> Thread.ofVirtual().name("homing-decision").start(task);

    private final Settings settings;
    private final EventLoopGroup loops;
    private final PodChannels pods;
    private final ProxyContext context;
    private final ModelsHandler models;
    private final ChannelGroup clients;
    private volatile boolean draining;
    private Channel server;

    /**
     * @param health    which endpoints may be sent a request; its ejections told of every attempt's outcome
     * @param explainer renders a decision as the value of the {@code x-homing-explain} response header
     * @param mayBlock  whether a decision may wait on I/O now (a tokenizer call, a Redis read): such decisions run on
     *                  virtual threads, others on the event loop that reads the request
     */
    public ApiPort(Settings settings, Director director, EndpointCatalog catalog, RequestIntake intake,
                   PodHealth health, RequestMetrics metrics, Ticker ticker, Function<Decision, String> explainer,
                   BooleanSupplier mayBlock, Access access, FlowGate flow) {
        this.settings = settings;
        this.loops = EventLoops.group(Math.max(1, settings.eventLoops()), "homing-api");
        this.pods = new PodChannels(settings.connectTimeout(), UpstreamClient.DEFAULT_MAX_IDLE_PER_POD,
                UpstreamClient.DEFAULT_IDLE_TIMEOUT, System::nanoTime);
        this.context = new ProxyContext(director, catalog, intake, pods, health,
                new RetryBudget(settings.retryBudget()), metrics, ticker, Math.max(1, settings.maxAttempts()),
                settings.responseTimeout().toMillis(), settings.idleTimeout().toMillis(), explainer, mayBlock,
                DECISION_THREADS, access, () -> draining, flow);
        this.clients = new DefaultChannelGroup("homing-api-clients", GlobalEventExecutor.INSTANCE);
        this.models = new ModelsHandler(catalog);
    }

    /** @throws IllegalStateException when the port cannot listen (in use, say) */
    public void start() {
        try {
            server = new ServerBootstrap().group(loops).channel(EventLoops.serverChannel())
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            clients.add(ch);
                            ClientConnection connection = new ClientConnection(context, models);
                            if (!settings.requestReadTimeout().isZero()) {
                                RequestDeadline deadline = new RequestDeadline(
                                        settings.requestReadTimeout().toNanos(), connection::readTimedOut);
                                connection.timedBy(deadline);
                                ch.pipeline().addLast(deadline);
                            }
                            ch.pipeline().addLast(new HttpServerCodec(new HttpDecoderConfig()
                                            .setMaxInitialLineLength(MAX_REQUEST_LINE)
                                            .setMaxHeaderSize(MAX_REQUEST_HEAD)),
                                    new HttpServerKeepAliveHandler(),
                                    connection); // which answers Expect: 100-continue once the head passed its checks
                        }
                    })
                    .bind(settings.host(), settings.port()).syncUninterruptibly().channel();
        } catch (Exception e) { // Netty rethrows the bind's IOException unchecked
            close();
            throw new IllegalStateException("the router's API port could not listen on " + settings.host() + ":"
                    + settings.port() + " (in use?)", e);
        }
    }

    /** The port listened on (the one picked, when asked for port 0). */
    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** Closes the kept connections to an endpoint that left the pool. */
    public void forget(Endpoint endpoint) {
        pods.forget(endpoint.address());
    }

    /**
     * Drains the port: stops listening, closes the connections idle between requests, lets each request under way
     * (a stream too) end and then closes its connection, for up to {@code deadline}.
     *
     * @return the requests still under way when the deadline came (0 when all ended)
     */
    public int drain(Duration deadline) throws InterruptedException {
        if (draining || loops.isShuttingDown()) {
            return context.retries().active(); // drained (or closed) already
        }
        draining = true;
        if (server != null) {
            server.close().syncUninterruptibly();
        }
        clients.forEach(ch -> ch.pipeline().fireUserEventTriggered(ClientConnection.DRAIN));
        long end = System.nanoTime() + deadline.toNanos();
        while (context.retries().active() > 0 && end - System.nanoTime() > 0) {
            Thread.sleep(20);
        }
        return context.retries().active();
    }

    /** Whether a drain has begun. */
    public boolean draining() {
        return draining;
    }

    /** Stops listening, then closes every connection: each exchange under way releases its load as its client goes. */
    @Override
    public void close() {
        if (loops.isShuttingDown()) {
            return;
        }
        if (server != null) {
            server.close().syncUninterruptibly();
        }
        // each client connection closed here, on its loop, so that every exchange under way ends (its client gone,
        // its load released) before the loops stop, rather than left to the loops' own shutdown
        clients.close().awaitUninterruptibly(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
        pods.close();
        loops.shutdownGracefully(0, SHUTDOWN_SECONDS, TimeUnit.SECONDS).awaitUninterruptibly(SHUTDOWN_SECONDS + 1,
                TimeUnit.SECONDS);
    }
}
