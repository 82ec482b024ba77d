package dev.homing.cli;

import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import dev.homing.router.discovery.StaticEndpoints;
import dev.homing.protocol.config.GoDuration;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code homing serve}: the router alone, in front of endpoints that already run. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run the router in front of running vLLM-compatible endpoints.")
final class ServeCommand implements Callable<Integer> {

    @Option(names = "--endpoints", required = true, paramLabel = "NAME=HOST:PORT[,...]",
            description = "The model-server endpoints, comma-separated; a bare HOST:PORT is named after itself.")
    String endpoints;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address the API binds (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "8000", description = "OpenAI-compatible API port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--admin-host", defaultValue = "127.0.0.1", description = "Address the admin port binds (default: ${DEFAULT-VALUE}).")
    String adminHost;

    @Option(names = "--admin-port", defaultValue = "9090",
            description = "Admin port: /metrics, /healthz, /readyz, /debug/endpoints, /prometheus/targets (default: ${DEFAULT-VALUE}).")
    int adminPort;

    @Option(names = "--scrape-interval", defaultValue = "50ms",
            description = "How often each endpoint's /metrics is read, as a Go duration (default: ${DEFAULT-VALUE}).")
    String scrapeInterval;

    @Option(names = "--no-credit-in-flight", negatable = false,
            description = "Do not add requests sent since the last scrape to the scraped queue and KV usage "
                    + "(reproduces llm-d's behaviour under bursts).")
    boolean noCredit;

    @Override
    public Integer call() throws Exception {
        RouterOptions base = RouterOptions.defaults(StaticEndpoints.parse(endpoints));
        Duration interval = GoDuration.parse(scrapeInterval);
        RouterOptions options = new RouterOptions(host, port, adminHost, adminPort, base.endpoints(), interval,
                base.scrapeTimeout(), base.modelsInterval(), base.maxBodyBytes(), base.connectTimeout(),
                base.responseTimeout(), base.maxAttempts(), !noCredit, base.seed(), base.poolName());
        try (ShutdownSignal signal = new ShutdownSignal(); RouterServer router = RouterServer.start(options)) {
            System.out.printf("homing: routing http://%s:%d -> %d endpoints; admin http://%s:%d%n",
                    host, router.port(), options.endpoints().size(), adminHost, router.adminPort());
            signal.await();
        }
        return 0;
    }
}
