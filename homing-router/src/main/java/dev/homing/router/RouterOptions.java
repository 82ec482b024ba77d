package dev.homing.router;

import dev.homing.core.config.BuiltInConfig;
import dev.homing.core.director.ResponseAffinity;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.framework.request.TokenSource;
import dev.homing.router.discovery.KubernetesPool;
import dev.homing.router.election.ElectionTimings;
import dev.homing.router.record.RecordOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * How to run a router. Build with {@link #defaults(List)} and adjust with {@link #with(Consumer)}.
 *
 * @param scrapeInterval     how often each endpoint's metrics are read (llm-d: 50 ms)
 * @param maxBodyBytes       largest request body accepted
 * @param responseTimeout    longest wait for an endpoint's response headers
 * @param connectTimeout     longest wait for a connection to a pod (1 s); a pod that cannot be reached is left for
 *                           another
 * @param maxAttempts        endpoints to try when one cannot be reached or is too busy
 * @param creditUnreflected  add this router's requests sent since the last scrape to the scraped load (see
 *                           {@link dev.homing.core.endpoint.EndpointLoad})
 * @param configFile         an {@code EndpointPickerConfig}, or null for a built-in one
 * @param precise            without a config file, the built-in precise config (KV-cache events) instead of the
 *                           default
 * @param configPollInterval how often the config file is checked for changes
 * @param tokenSource        what turns a request into its tokens for the plugins that need them (the precise prefix
 *                           producer), or null for none: those plugins then fall back
 * @param redisUrl           a Redis shared by the pool's router replicas ({@code redis://host:port}), or null for none:
 *                           with one, the precise index and the requests in flight are shared through it
 * @param endpointsFile      an endpoints file ({@link dev.homing.router.discovery.EndpointsYaml}) read at start and
 *                           whenever it changes, in place of {@code endpoints} (which must then be empty); or null
 * @param pd                 without a config file, the built-in P/D config (llm-d's {@code pd-epp-config.yaml})
 *                           instead of the default; not with {@code precise}
 * @param proxy              whether the API port (the OpenAI-compatible HTTP proxy) runs
 * @param extProcPort        the Envoy ext_proc gRPC port (llm-d: 9002), 0 for a free one, -1 for none
 * @param healthPort         the gRPC health port (llm-d: 9003), 0 for a free one, -1 for none
 * @param secureServing      whether the ext_proc port speaks TLS (llm-d's default), with a certificate from
 *                           {@code certPath} or, without one, made at start
 * @param certPath           a directory holding {@code tls.crt} and {@code tls.key}, or null
 * @param responseAffinityCapacity most Responses API response ids remembered with the pod that answered them (the
 *                           least recently used forgotten first), so a {@code previous_response_id} goes back there
 * @param kubernetes         the pods of a namespace as the pool (an InferencePool's, or a selector's), discovered and
 *                           followed through the Kubernetes API, in place of {@code endpoints} (which must then be
 *                           empty) and {@code endpointsFile}; or null
 * @param kubeconfig         with {@code kubernetes}: the kubeconfig to use, or null to look as kubectl does
 *                           ({@code KUBECONFIG}, {@code ~/.kube/config}) or use the pod's service account
 * @param election           with {@code kubernetes}: the replicas elect a leader through a Lease, and only the leader
 *                           is ready (llm-d's {@code --ha-enable-leader-election}); null for none
 * @param record             where {@code --record} writes a Mooncake-format trace of what is routed, and how it
 *                           rotates; null for none
 * @param idleTimeout        longest wait for a response's next bytes once its head is in (Envoy's stream idle
 *                           timeout, 5 min); a pod silent longer ends the response (an SSE error event mid-stream)
 * @param retryBudget        busy answers (429, 503) are tried on another pod, at most this per cent of the requests
 *                           under way at once (at least 3; Envoy's retry budget, 20 %); 0 for none
 * @param healthCheckInterval how often each endpoint's {@code /health} is probed; zero for no active checks
 * @param metricsStaleness   an endpoint whose metrics are older is no candidate while some other's are fresh (llm-d's
 *                           {@code --metrics-staleness-threshold}, 2 s), but never before two scrapes in a row were
 *                           missed (two scrape intervals and a scrape timeout); zero for never
 * @param drainTimeout       how long a stopping router lets open requests and streams finish (30 s)
 * @param requestReadTimeout longest a client may take to send a whole request, head and body (a slow client gets 408)
 * @param apiKeysFile        bearer tokens the API port accepts, one a line (reloaded when the file changes); null for
 *                           no authentication
 * @param adminToken         a bearer token the admin port asks for (health and readiness probes excepted); null for none
 * @param explainForAll      honour {@code x-homing-explain} from any client; otherwise only from one presenting the
 *                           admin token in {@code x-homing-admin-token}
 * @param stripAuthorization the client's {@code Authorization} is not sent on to the pods
 * @param podTokensFile      tokens the pods ask for ({@code vllm --api-key}), sent as {@code Authorization: Bearer} in
 *                           place of the client's: lines {@code <pod> <token>}, {@code *} for every other pod; null
 *                           for none
 * @param objectivesFile     {@code InferenceObjective} and {@code InferenceModelRewrite} resources, as one would
 *                           {@code kubectl apply} them, followed as the file changes; null for none (in Kubernetes the
 *                           cluster's own resources are watched instead)
 */
public record RouterOptions(String host, int port, String adminHost, int adminPort, List<Endpoint> endpoints,
                            Duration scrapeInterval, Duration scrapeTimeout, Duration modelsInterval,
                            int maxBodyBytes, Duration connectTimeout, Duration responseTimeout, int maxAttempts,
                            boolean creditUnreflected, long seed, String poolName, Path configFile,
                            boolean precise, Duration configPollInterval, TokenSource tokenSource, String redisUrl,
                            Path endpointsFile, boolean pd, boolean proxy, int extProcPort, int healthPort,
                            boolean secureServing, Path certPath, int responseAffinityCapacity,
                            KubernetesPool kubernetes, Path kubeconfig, ElectionTimings election,
                            RecordOptions record, Duration idleTimeout, double retryBudget,
                            Duration healthCheckInterval, Duration metricsStaleness, Duration drainTimeout,
                            Duration requestReadTimeout, Path apiKeysFile, String adminToken, boolean explainForAll,
                            boolean stripAuthorization, Path podTokensFile, Path objectivesFile) {

    public RouterOptions {
        endpoints = List.copyOf(endpoints);
        if (endpointsFile != null && !endpoints.isEmpty()) {
            throw new IllegalArgumentException("give endpoints or an endpoints file, not both");
        }
        if (responseAffinityCapacity <= 0) {
            throw new IllegalArgumentException("responseAffinityCapacity must be > 0, got " + responseAffinityCapacity);
        }
        if (kubernetes != null && (endpointsFile != null || !endpoints.isEmpty())) {
            throw new IllegalArgumentException("give endpoints, an endpoints file or a Kubernetes pool, one of them");
        }
        if (election != null && kubernetes == null) {
            throw new IllegalArgumentException("leader election needs a Kubernetes pool: its Lease lives there");
        }
        if (configFile == null && precise && pd) {
            throw new IllegalArgumentException("there is no built-in precise P/D config; give a config file");
        }
        if (!(retryBudget >= 0 && retryBudget <= 100)) {
            throw new IllegalArgumentException("the retry budget is a percentage in [0, 100], got " + retryBudget);
        }
        for (Duration d : new Duration[] {idleTimeout, healthCheckInterval, metricsStaleness, drainTimeout,
                requestReadTimeout, connectTimeout, responseTimeout}) {
            if (d.isNegative()) {
                throw new IllegalArgumentException("a timeout or interval cannot be negative, got " + d);
            }
        }
    }

    /** The config that runs when there is no config file. */
    public BuiltInConfig builtInConfig() {
        return pd ? BuiltInConfig.PD : precise ? BuiltInConfig.PRECISE : BuiltInConfig.DEFAULT;
    }

    public static RouterOptions defaults(List<Endpoint> endpoints) {
        return new RouterOptions("127.0.0.1", 8000, "127.0.0.1", 9090, endpoints, Duration.ofMillis(50),
                Duration.ofSeconds(1), Duration.ofSeconds(5), 32 << 20, Duration.ofSeconds(1), Duration.ofMinutes(10),
                3, true, System.nanoTime(), "homing", null, false, Duration.ofSeconds(1), null, null, null, false,
                true, -1, -1, true, null, ResponseAffinity.DEFAULT_CAPACITY, null, null, null, null,
                Duration.ofMinutes(5), 20.0, Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(30),
                Duration.ofSeconds(30), null, null, false, false, null, null);
    }

    /** A copy with some options changed. */
    public RouterOptions with(Consumer<Builder> change) {
        Builder b = new Builder(this);
        change.accept(b);
        return b.build();
    }

    /** Mutable twin of the options, for {@link #with(Consumer)}. */
    public static final class Builder {
        public String host;
        public int port;
        public String adminHost;
        public int adminPort;
        public List<Endpoint> endpoints;
        public Duration scrapeInterval;
        public Duration scrapeTimeout;
        public Duration modelsInterval;
        public int maxBodyBytes;
        public Duration connectTimeout;
        public Duration responseTimeout;
        public int maxAttempts;
        public boolean creditUnreflected;
        public long seed;
        public String poolName;
        public Path configFile;
        public boolean precise;
        public Duration configPollInterval;
        public TokenSource tokenSource;
        public String redisUrl;
        public Path endpointsFile;
        public boolean pd;
        public boolean proxy;
        public int extProcPort;
        public int healthPort;
        public boolean secureServing;
        public Path certPath;
        public int responseAffinityCapacity;
        public KubernetesPool kubernetes;
        public Path kubeconfig;
        public ElectionTimings election;
        public RecordOptions record;
        public Duration idleTimeout;
        public double retryBudget;
        public Duration healthCheckInterval;
        public Duration metricsStaleness;
        public Duration drainTimeout;
        public Duration requestReadTimeout;
        public Path apiKeysFile;
        public String adminToken;
        public boolean explainForAll;
        public boolean stripAuthorization;
        public Path podTokensFile;
        public Path objectivesFile;

        Builder(RouterOptions o) {
            host = o.host;
            port = o.port;
            adminHost = o.adminHost;
            adminPort = o.adminPort;
            endpoints = o.endpoints;
            scrapeInterval = o.scrapeInterval;
            scrapeTimeout = o.scrapeTimeout;
            modelsInterval = o.modelsInterval;
            maxBodyBytes = o.maxBodyBytes;
            connectTimeout = o.connectTimeout;
            responseTimeout = o.responseTimeout;
            maxAttempts = o.maxAttempts;
            creditUnreflected = o.creditUnreflected;
            seed = o.seed;
            poolName = o.poolName;
            configFile = o.configFile;
            precise = o.precise;
            configPollInterval = o.configPollInterval;
            tokenSource = o.tokenSource;
            redisUrl = o.redisUrl;
            endpointsFile = o.endpointsFile;
            pd = o.pd;
            proxy = o.proxy;
            extProcPort = o.extProcPort;
            healthPort = o.healthPort;
            secureServing = o.secureServing;
            certPath = o.certPath;
            responseAffinityCapacity = o.responseAffinityCapacity;
            kubernetes = o.kubernetes;
            kubeconfig = o.kubeconfig;
            election = o.election;
            record = o.record;
            idleTimeout = o.idleTimeout;
            retryBudget = o.retryBudget;
            healthCheckInterval = o.healthCheckInterval;
            metricsStaleness = o.metricsStaleness;
            drainTimeout = o.drainTimeout;
            requestReadTimeout = o.requestReadTimeout;
            apiKeysFile = o.apiKeysFile;
            adminToken = o.adminToken;
            explainForAll = o.explainForAll;
            stripAuthorization = o.stripAuthorization;
            podTokensFile = o.podTokensFile;
            objectivesFile = o.objectivesFile;
        }

        RouterOptions build() {
            return new RouterOptions(host, port, adminHost, adminPort, endpoints, scrapeInterval, scrapeTimeout,
                    modelsInterval, maxBodyBytes, connectTimeout, responseTimeout, maxAttempts, creditUnreflected, seed,
                    poolName, configFile, precise, configPollInterval, tokenSource, redisUrl, endpointsFile, pd,
                    proxy, extProcPort, healthPort, secureServing, certPath, responseAffinityCapacity, kubernetes,
                    kubeconfig, election, record, idleTimeout, retryBudget, healthCheckInterval, metricsStaleness,
                    drainTimeout, requestReadTimeout, apiKeysFile, adminToken, explainForAll, stripAuthorization,
                    podTokensFile, objectivesFile);
        }
    }
}
