package dev.homing.cli;

import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import dev.homing.router.discovery.StaticEndpoints;
import dev.homing.protocol.config.GoDuration;
import dev.homing.core.endpoint.Endpoint;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code homing serve}: the router alone, in front of endpoints that already run. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run the router in front of running vLLM-compatible endpoints.")
final class ServeCommand implements Callable<Integer> {

    @ArgGroup(exclusive = true, multiplicity = "1")
    Endpoints endpoints;

    /** Where the endpoints come from: exactly one of the two. */
    static final class Endpoints {
        @Option(names = "--endpoints", paramLabel = StaticEndpoints.SYNTAX,
                description = "The model-server endpoints, comma-separated; a bare HOST:PORT is named after itself. "
                        + "Labels follow their endpoint after ';', in Kubernetes' label syntax: role filters, label "
                        + "selectors and context-length-aware read them, e.g. "
                        + "'p=10.0.0.1:8000;llm-d.ai/role=prefill,d=10.0.0.2:8000;llm-d.ai/role=decode'.")
        String list;

        @Option(names = "--endpoints-file", paramLabel = "FILE",
                description = "The endpoints as YAML (endpoints: a list of name, address or host and port, labels; "
                        + "docs/CONFIGURATION.md, \"Endpoints and labels\"); re-read when it changes: endpoints "
                        + "join and leave, a broken change is refused and the running endpoints stay.")
        java.nio.file.Path file;
    }

    @Option(names = "--host", defaultValue = "127.0.0.1",
            description = "Address the API and the gRPC ports (ext_proc, health) bind (default: ${DEFAULT-VALUE}).")
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
                    + "prefix index, the requests in flight, and what the default config learns from picks (its "
                    + "approximate prefix index and newcomer order) are shared through it, so replicas agree where "
                    + "a prompt lives, and do not all pick the same idle pod. If it goes away, each replica routes "
                    + "on its own state until it returns. Default: none.")
    String redis;

    @Option(names = {"--ext-proc-port", "--grpc-port"}, paramLabel = "PORT",
            description = "Also serve Envoy's ext_proc protocol here, as llm-d's endpoint picker does (llm-d: 9002), "
                    + "for a Gateway API gateway whose InferencePool names this router. Default: off.")
    Integer extProcPort;

    @Option(names = "--grpc-health-port", paramLabel = "PORT",
            description = "gRPC health, as llm-d's chart probes it (names liveness, readiness, inference-extension, "
                    + "the ext_proc service). Default: 9003 with --ext-proc-port, else off.")
    Integer healthPort;

    @Option(names = "--secure-serving", arity = "0..1", defaultValue = "true", fallbackValue = "true",
            paramLabel = "BOOL", description = "TLS on the ext_proc port, with a self-signed certificate made at "
                    + "start unless --cert-path gives one (default: ${DEFAULT-VALUE}); --secure-serving=false for "
                    + "plaintext.")
    boolean secureServing;

    @Option(names = "--cert-path", paramLabel = "DIR",
            description = "A directory with tls.crt and tls.key (PEM; the key PKCS#8) for the ext_proc port.")
    java.nio.file.Path certPath;

    @Option(names = "--proxy", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Run the OpenAI-compatible HTTP proxy on --port (default: ${DEFAULT-VALUE}). "
                    + "--no-proxy with --ext-proc-port runs the picker alone, behind a gateway.")
    boolean proxy;

    @Option(names = "--response-affinity", paramLabel = "N", defaultValue = "65536",
            description = "Most Responses API response ids remembered with the pod that answered them, so a request "
                    + "naming one as previous_response_id goes back to that pod; the least recently used are "
                    + "forgotten first (default: ${DEFAULT-VALUE}).")
    int responseAffinity;

    @Override
    public Integer call() throws Exception {
        Duration interval = GoDuration.parse(scrapeInterval);
        if (!proxy && extProcPort == null) {
            throw new IllegalArgumentException("--no-proxy leaves nothing to serve: give --ext-proc-port too");
        }
        int health = healthPort != null ? healthPort : extProcPort != null ? 9003 : -1;
        List<Endpoint> given = endpoints.list != null ? StaticEndpoints.parse(endpoints.list) : List.of();
        RouterOptions options = RouterOptions.defaults(given).with(o -> {
            o.endpointsFile = endpoints.file;
            o.host = host;
            o.port = port;
            o.adminHost = adminHost;
            o.adminPort = adminPort;
            o.scrapeInterval = interval;
            o.creditUnreflected = !noCredit;
            o.configFile = config;
            o.redisUrl = redis;
            o.proxy = proxy;
            o.extProcPort = extProcPort == null ? -1 : extProcPort;
            o.healthPort = health;
            o.secureServing = secureServing;
            o.certPath = certPath;
            o.responseAffinityCapacity = responseAffinity;
        });
        try (ShutdownSignal signal = new ShutdownSignal(); RouterServer router = RouterServer.start(options)) {
            String watched = endpoints.file == null ? "" : " (" + endpoints.file + ", watched)";
            int count = router.pool().snapshot().endpoints().size();
            if (proxy) {
                System.out.printf("homing: routing http://%s:%d -> %d endpoints%s; admin http://%s:%d%n",
                        host, router.port(), count, watched, adminHost, router.adminPort());
            }
            if (router.extProcPort() >= 0) {
                System.out.printf("homing: ext_proc %s://%s:%d (%s) -> %d endpoints%s; gRPC health %s:%d; admin "
                                + "http://%s:%d%n", secureServing ? "grpcs" : "grpc", host, router.extProcPort(),
                        secureServing ? certPath != null ? "TLS, " + certPath : "TLS, self-signed" : "plaintext",
                        count, watched, host, router.healthPort(), adminHost, router.adminPort());
            }
            signal.await();
        }
        return 0;
    }
}
