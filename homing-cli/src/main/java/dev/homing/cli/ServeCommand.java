package dev.homing.cli;

import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import dev.homing.router.discovery.KubernetesPool;
import dev.homing.router.discovery.StaticEndpoints;
import dev.homing.router.election.ElectionTimings;
import dev.homing.router.record.RecordOptions;
import dev.homing.protocol.config.GoDuration;
import dev.homing.core.endpoint.Endpoint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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

    /** Where the endpoints come from: exactly one of the four. */
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

        @Option(names = "--pool-name", paramLabel = "NAME",
                description = "Discover the pods through Kubernetes, as llm-d's endpoint picker: the InferencePool "
                        + "(inference.networking.k8s.io/v1) of this name says which pods (its selector) and ports "
                        + "(its targetPorts), and is followed as it is edited; a pod is an endpoint while it is Ready "
                        + "and not being deleted, with its labels. Kubeconfig or in-cluster service account.")
        String poolName;

        @Option(names = "--endpoint-selector", paramLabel = "SELECTOR",
                description = "Discover the pods through Kubernetes without an InferencePool (llm-d's standalone "
                        + "mode): the pods this label selector matches, e.g. 'app=vllm,llm-d.ai/role in "
                        + "(decode)'; needs --endpoint-target-ports.")
        String endpointSelector;
    }

    @Option(names = "--pool-namespace", paramLabel = "NS",
            description = "With --pool-name or --endpoint-selector: the namespace of the pool and its pods (default: "
                    + "the NAMESPACE environment variable, which llm-d's chart sets, else 'default').")
    String poolNamespace;

    @Option(names = "--pool-group", paramLabel = "GROUP",
            description = "With --pool-name: the InferencePool's API group; Homing reads inference.networking.k8s.io "
                    + "only, as llm-d does.")
    String poolGroup;

    @Option(names = "--endpoint-target-ports", paramLabel = "PORT[,PORT...]",
            description = "With --endpoint-selector: each selected pod's ports, one endpoint each (1 to 8).")
    String endpointTargetPorts;

    @Option(names = "--kubeconfig", paramLabel = "FILE",
            description = "With Kubernetes discovery: the kubeconfig to use (default: KUBECONFIG, ~/.kube/config, "
                    + "else the pod's service account).")
    java.nio.file.Path kubeconfig;

    @Option(names = "--ha-enable-leader-election", arity = "0..1", defaultValue = "false", fallbackValue = "true",
            paramLabel = "BOOL",
            description = "With Kubernetes discovery: the replicas elect a leader through a coordination.k8s.io "
                    + "Lease, and only the leader is ready, as llm-d's picker (default: ${DEFAULT-VALUE}).")
    boolean leaderElection;

    /**
     * The bind address when neither the flag nor the environment names one: all interfaces with Kubernetes discovery
     * (a pod, probed by its kubelet and reached by the gateway, as llm-d's picker binds), else loopback.
     */
    static final String AUTO_HOST = "auto";

    @Option(names = "--host", defaultValue = "${env:HOMING_HOST:-" + AUTO_HOST + "}",
            description = "Address the API and the gRPC ports (ext_proc, health) bind (default: HOMING_HOST from the "
                    + "environment, else " + AUTO_HOST + ": 0.0.0.0 with Kubernetes discovery (--pool-name, "
                    + "--endpoint-selector) as llm-d's picker binds, 127.0.0.1 otherwise; now ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "8000", description = "OpenAI-compatible API port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--admin-host", defaultValue = "${env:HOMING_ADMIN_HOST:-" + AUTO_HOST + "}",
            description = "Address the admin port binds (default: HOMING_ADMIN_HOST from the environment, else "
                    + AUTO_HOST + ": 0.0.0.0 with Kubernetes discovery, 127.0.0.1 otherwise; now ${DEFAULT-VALUE}).")
    String adminHost;

    @Option(names = {"--admin-port", "--metrics-port"}, defaultValue = "9090",
            description = "Admin port: /metrics, /healthz, /readyz, /debug/endpoints, /prometheus/targets (default: ${DEFAULT-VALUE}).")
    int adminPort;

    @Option(names = "--scrape-interval", defaultValue = "50ms",
            description = "How often each endpoint's /metrics is read, as a Go duration (default: ${DEFAULT-VALUE}).")
    String scrapeInterval;

    @Option(names = {"--config", "--config-file"}, paramLabel = "FILE",
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
                    + "for a Gateway API gateway whose InferencePool names this router. Default: 9002 with "
                    + "--pool-name or --endpoint-selector, as llm-d, else off; -1 turns it off.")
    Integer extProcPort;

    @Option(names = "--grpc-health-port", paramLabel = "PORT",
            description = "gRPC health, as llm-d's chart probes it (names liveness, readiness, inference-extension, "
                    + "the ext_proc service). Default: 9003 with --ext-proc-port, else off; -1 turns it off.")
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

    @Option(names = "--record", paramLabel = "FILE",
            description = "Write a Mooncake-format trace of what is routed to FILE: one JSON line per completed request"
                    + " (timestamp ms, input_length, output_length, hash_ids of 512-token blocks numbered per file,"
                    + " session_id when the request names one); no text or raw hash leaves the router. Replay it"
                    + " with homing bench --workload trace --param file=FILE.")
    java.nio.file.Path record;

    @Option(names = "--record-max-bytes", paramLabel = "SIZE", defaultValue = "100MiB",
            description = "With --record: rotate FILE to FILE.1 (and so on) before it passes SIZE (default:"
                    + " ${DEFAULT-VALUE}).")
    String recordMaxBytes;

    @Option(names = "--record-max-files", paramLabel = "N", defaultValue = "5",
            description = "With --record: files kept, FILE included; the oldest is deleted on rotation (default:"
                    + " ${DEFAULT-VALUE}).")
    int recordMaxFiles;

    @Option(names = "--connect-timeout", defaultValue = "1s", paramLabel = "DURATION",
            description = "Longest wait for a connection to a pod; one that cannot be reached is left for another "
                    + "(default: ${DEFAULT-VALUE}).")
    String connectTimeout;

    @Option(names = "--stream-idle-timeout", defaultValue = "5m", paramLabel = "DURATION",
            description = "Longest wait for a response's next bytes once its head is in (Envoy's stream idle "
                    + "timeout); a stream that stalls longer ends with an error event (default: ${DEFAULT-VALUE}).")
    String streamIdleTimeout;

    @Option(names = "--retry-budget", defaultValue = "20", paramLabel = "PERCENT",
            description = "A pod's 429 or 503 is retried on another pod, at most this share of the requests under way "
                    + "at once (at least 3), after a jittered back-off; 0 relays them (default: ${DEFAULT-VALUE}).")
    double retryBudget;

    @Option(names = "--health-check-interval", defaultValue = "1s", paramLabel = "DURATION",
            description = "How often each pod's GET /health is probed; two failures in a row take it out, one "
                    + "answer brings it back; 0 turns active checks off (default: ${DEFAULT-VALUE}).")
    String healthCheckInterval;

    @Option(names = "--metrics-staleness-threshold", defaultValue = "2s", paramLabel = "DURATION",
            description = "A pod whose scraped metrics are older is no candidate while another's are fresh, as "
                    + "llm-d's saturation detector counts it saturated (llm-d's flag), but never before two scrapes "
                    + "in a row were missed; 0 for never (default: ${DEFAULT-VALUE}).")
    String metricsStaleness;

    @Option(names = "--drain-timeout", defaultValue = "30s", paramLabel = "DURATION",
            description = "On SIGTERM: readiness fails at once, no new connection or ext_proc call is taken, and the "
                    + "requests and streams under way get this long to end (default: ${DEFAULT-VALUE}).")
    String drainTimeout;

    @Option(names = "--request-read-timeout", defaultValue = "30s", paramLabel = "DURATION",
            description = "Longest a client may take to send a whole request, head and body; a slower one gets 408 "
                    + "(default: ${DEFAULT-VALUE}).")
    String requestReadTimeout;

    @Option(names = "--objectives-file", paramLabel = "FILE",
            description = "InferenceObjective and InferenceModelRewrite resources as you would kubectl apply them "
                    + "(YAML documents separated by ---): priorities for x-gateway-inference-objective, and model "
                    + "rewrites. Followed as the file changes; a bad change is logged and the last good one kept. "
                    + "Default: none (with --pool-name, the cluster's resources are watched).")
    java.nio.file.Path objectivesFile;

    @Option(names = "--api-keys-file", paramLabel = "FILE",
            description = "Bearer tokens the API port asks of clients, one a line ('#' comments); 401 in OpenAI's "
                    + "shape without one. Reloaded when the file changes. /health stays open. Default: none.")
    java.nio.file.Path apiKeysFile;

    @Option(names = "--admin-token-file", paramLabel = "FILE",
            description = "A token the admin port asks for as 'Authorization: Bearer' (/healthz and /readyz stay "
                    + "open for probes); it also lets a client see x-homing-explain, sent in x-homing-admin-token. "
                    + "Default: none.")
    java.nio.file.Path adminTokenFile;

    @Option(names = "--explain-for-all", negatable = false,
            description = "Answer x-homing-explain: true (pod names and scores) for any client, not only one with "
                    + "the admin token.")
    boolean explainForAll;

    @Option(names = "--strip-authorization", negatable = false,
            description = "Do not send the client's Authorization header on to the pods.")
    boolean stripAuthorization;

    @Option(names = "--pod-tokens-file", paramLabel = "FILE",
            description = "Tokens the pods ask for (vllm --api-key), sent as 'Authorization: Bearer' in place of the "
                    + "client's: lines '<pod> <token>', '* <token>' for the others. Reloaded when it changes.")
    java.nio.file.Path podTokensFile;

    @picocli.CommandLine.Mixin
    LlmdIgnoredFlags ignored;

    /** Where NAMESPACE and POD_NAME are read (tests give their own). */
    Map<String, String> env = System.getenv();

    @Override
    public Integer call() throws Exception {
        RouterOptions options = options();
        String warning = ignored.warning();
        if (warning != null) {
            System.err.println(warning);
        }
        // the JVM is held open on SIGTERM while the router drains, and a little longer for the rest to close
        try (ShutdownSignal signal = new ShutdownSignal(options.drainTimeout().plusSeconds(15));
             RouterServer router = RouterServer.start(options)) {
            String watched = endpoints.file != null ? " (" + endpoints.file + ", watched)"
                    : options.kubernetes() != null ? " (" + router.discovery().describe() + ", followed)" : "";
            int count = router.pool().snapshot().endpoints().size();
            if (proxy) {
                System.out.printf("homing: routing http://%s:%d -> %d endpoints%s; admin http://%s:%d%n",
                        options.host(), router.port(), count, watched, options.adminHost(), router.adminPort());
            }
            if (router.extProcPort() >= 0) {
                System.out.printf("homing: ext_proc %s://%s:%d (%s) -> %d endpoints%s; gRPC health %s:%d; admin "
                                + "http://%s:%d%n", secureServing ? "grpcs" : "grpc", options.host(), router.extProcPort(),
                        secureServing ? certPath != null ? "TLS, " + certPath : "TLS, self-signed" : "plaintext",
                        count, watched, options.host(), router.healthPort(), options.adminHost(),
                        router.adminPort());
            }
            signal.await();
        }
        return 0;
    }

    /**
     * The address to bind: the flag's, else the environment variable's ({@link #env}, which is the process's; picocli
     * has read the same one for the flag's default), else all interfaces in a pod (Kubernetes discovery), loopback
     * otherwise.
     */
    private String bindAddress(String given, String variable, boolean inKubernetes) {
        if (!AUTO_HOST.equals(given)) {
            return given;
        }
        String fromEnv = env.get(variable);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv;
        }
        return inKubernetes ? "0.0.0.0" : "127.0.0.1";
    }

    /** What the command line asks for, checked; the router is not started. */
    RouterOptions options() {
        Duration interval = GoDuration.parse(scrapeInterval);
        KubernetesPool kubernetes = kubernetesPool();
        if (kubernetes == null && (poolNamespace != null || poolGroup != null || kubeconfig != null
                || leaderElection)) {
            throw new IllegalArgumentException("--pool-namespace, --pool-group, --kubeconfig and "
                    + "--ha-enable-leader-election go with --pool-name or --endpoint-selector");
        }
        if (endpointTargetPorts != null && endpoints.endpointSelector == null) {
            throw new IllegalArgumentException("--endpoint-target-ports goes with --endpoint-selector");
        }
        Integer extProc = extProcPort != null ? extProcPort : kubernetes != null ? Integer.valueOf(9002) : null;
        if (!proxy && extProc == null) {
            throw new IllegalArgumentException("--no-proxy leaves nothing to serve: give --ext-proc-port too");
        }
        int health = healthPort != null ? healthPort : extProc != null ? 9003 : -1;
        RecordOptions recording = record == null ? null
                : RecordOptions.of(record, RecordOptions.parseSize(recordMaxBytes), recordMaxFiles);
        List<Endpoint> given = endpoints.list != null ? StaticEndpoints.parse(endpoints.list) : List.of();
        String apiHost = bindAddress(host, "HOMING_HOST", kubernetes != null);
        String adminBind = bindAddress(adminHost, "HOMING_ADMIN_HOST", kubernetes != null);
        String adminToken = adminTokenFile == null ? null : readToken(adminTokenFile);
        return RouterOptions.defaults(given).with(o -> {
            o.connectTimeout = GoDuration.parse(connectTimeout);
            o.idleTimeout = GoDuration.parse(streamIdleTimeout);
            o.retryBudget = retryBudget;
            o.healthCheckInterval = GoDuration.parse(healthCheckInterval);
            o.metricsStaleness = GoDuration.parse(metricsStaleness);
            o.drainTimeout = GoDuration.parse(drainTimeout);
            o.requestReadTimeout = GoDuration.parse(requestReadTimeout);
            o.apiKeysFile = apiKeysFile;
            o.objectivesFile = objectivesFile;
            o.adminToken = adminToken;
            o.explainForAll = explainForAll;
            o.stripAuthorization = stripAuthorization;
            o.podTokensFile = podTokensFile;
            o.endpointsFile = endpoints.file;
            o.host = apiHost;
            o.port = port;
            o.adminHost = adminBind;
            o.adminPort = adminPort;
            o.scrapeInterval = interval;
            o.creditUnreflected = !noCredit;
            o.configFile = config;
            o.redisUrl = redis;
            o.proxy = proxy;
            o.extProcPort = extProc == null ? -1 : extProc;
            o.healthPort = health;
            o.secureServing = secureServing;
            o.certPath = certPath;
            o.responseAffinityCapacity = responseAffinity;
            o.kubernetes = kubernetes;
            o.kubeconfig = kubeconfig;
            o.election = leaderElection ? ElectionTimings.DEFAULT : null;
            o.record = recording;
            if (kubernetes != null && kubernetes.followsInferencePool()) {
                o.poolName = kubernetes.name(); // the router's metrics name the pool as llm-d's do
            }
        });
    }

    /** The token the file holds; the router checks it is one (BearerTokens.of) as it starts. */
    private static String readToken(java.nio.file.Path file) {
        try {
            return java.nio.file.Files.readString(file).strip();
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("--admin-token-file " + file + " cannot be read: " + e.getMessage());
        }
    }

    private KubernetesPool kubernetesPool() {
        if (endpoints.poolName != null) {
            return KubernetesPool.inferencePool(poolNamespace, endpoints.poolName, poolGroup, env);
        }
        if (endpoints.endpointSelector != null) {
            if (poolGroup != null) {
                throw new IllegalArgumentException("--pool-group goes with --pool-name");
            }
            return KubernetesPool.standalone(poolNamespace, endpoints.endpointSelector, endpointTargetPorts, env);
        }
        return null;
    }
}
