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

    @Option(names = "--config", paramLabel = "FILE",
            description = "An EndpointPickerConfig (llm-d's format); reloaded when it changes, a broken change is "
                    + "refused and the running config stays. Default: Homing's built-in profile.")
    java.nio.file.Path config;

    @Option(names = "--no-credit-in-flight", negatable = false,
            description = "Do not add requests sent since the last scrape to the scraped queue and KV usage "
                    + "(reproduces llm-d's behaviour under bursts).")
    boolean noCredit;

    @Option(names = "--redis", paramLabel = "URL",
            description = "A Redis shared by the pool's router replicas, e.g. redis://127.0.0.1:6379: the precise "
                    + "prefix index and the requests in flight are shared through it, so replicas that do not each "
                    + "subscribe to KV events agree, and do not all pick the same idle pod. If it goes away, each "
                    + "replica routes on its own state until it returns. Default: none.")
    String redis;

    @Option(names = "--response-affinity", paramLabel = "N", defaultValue = "65536",
            description = "Most Responses API response ids remembered with the pod that answered them, so a request "
                    + "naming one as previous_response_id goes back to that pod; the least recently used are "
                    + "forgotten first (default: ${DEFAULT-VALUE}).")
    int responseAffinity;

    @Override
    public Integer call() throws Exception {
        Duration interval = GoDuration.parse(scrapeInterval);
        RouterOptions options = RouterOptions.defaults(StaticEndpoints.parse(endpoints)).with(o -> {
            o.host = host;
            o.port = port;
            o.adminHost = adminHost;
            o.adminPort = adminPort;
            o.scrapeInterval = interval;
            o.creditUnreflected = !noCredit;
            o.configFile = config;
            o.redisUrl = redis;
            o.responseAffinityCapacity = responseAffinity;
        });
        try (ShutdownSignal signal = new ShutdownSignal(); RouterServer router = RouterServer.start(options)) {
            System.out.printf("homing: routing http://%s:%d -> %d endpoints; admin http://%s:%d%n",
                    host, router.port(), options.endpoints().size(), adminHost, router.adminPort());
            signal.await();
        }
        return 0;
    }
}
