package dev.homing.cli.cluster;

import dev.homing.core.config.ConfigException;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.plugins.filter.RoleFilters;
import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import dev.homing.router.precise.events.PublisherAddress;
import dev.homing.sim.engine.Preset;
import dev.homing.sim.http.SimPod;
import dev.homing.sim.http.SimPodConfig;
import dev.homing.sim.kvevents.KvEventsConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A cluster on this machine: simulated vLLM pods, each on its own port, behind one router. What {@code homing up}
 * and {@code homing demo} run, and what end-to-end tests start. With {@code precise}, every pod publishes its
 * KV-cache events on an ephemeral port (vLLM's legacy encoding, a replay socket beside it), its endpoint is labelled
 * with both addresses, and the router runs the precise config unless given another. With a {@link PdSplit}, the pods
 * are prefill pods then decode pods, labelled {@code llm-d.ai/role} as llm-d's P/D deployments are, and the router
 * runs llm-d's P/D config unless given another. The simulated pods have no P/D sidecar: a decode pod told of a
 * prefiller ({@code x-prefiller-host-port}) serves the whole request itself.
 */
public final class LocalCluster implements AutoCloseable {

    /**
     * @param podBasePort first pod port (pods take consecutive ports), or 0 for free ports
     * @param port        router API port, 0 for a free one
     * @param adminPort   router admin port, 0 for a free one
     * @param config      the router's EndpointPickerConfig, or null for the default (the precise config with
     *                    {@code precise})
     * @param precise     pods publish KV-cache events and the router subscribes
     * @param redisUrl    a Redis the router shares its index and load through, or null
     * @param pd          prefill and decode pods ({@code pods} is then their sum), or null for pods without roles
     * @param extProc     the router as a gateway's picker behind a stand-in for Envoy, or null for its HTTP proxy
     */
    public record Options(int pods, String model, Preset preset, String host, int port, int adminPort,
                          int podBasePort, long seed, Path config, boolean precise, String redisUrl, PdSplit pd,
                          ExtProc extProc) {
        public Options {
            if (pods < 1) {
                throw new IllegalArgumentException("--pods must be at least 1, got " + pods);
            }
            if (pd != null && pd.pods() != pods) {
                throw new IllegalArgumentException("--pd " + pd.prefill() + ":" + pd.decode() + " starts "
                        + pd.pods() + " pods, not " + pods);
            }
            if (pd != null && precise && config == null) {
                throw new IllegalArgumentException("--pd with --precise needs --config FILE: there is no built-in "
                        + "precise P/D config");
            }
        }

        /** Pods without roles, behind the router's own HTTP port. */
        public Options(int pods, String model, Preset preset, String host, int port, int adminPort, int podBasePort,
                       long seed, Path config, boolean precise, String redisUrl) {
            this(pods, model, preset, host, port, adminPort, podBasePort, seed, config, precise, redisUrl, null, null);
        }

        /** These options with the router as an ext_proc picker behind a gateway stand-in on {@code port}. */
        public Options withExtProc(ExtProc e) {
            return new Options(pods, model, preset, host, port, adminPort, podBasePort, seed, config, precise, redisUrl,
                    pd, e);
        }
    }

    /**
     * The router as a gateway's endpoint picker: its ext_proc and health ports, and a {@link LocalGateway} in front on
     * the cluster's API port playing Envoy; the router's own HTTP proxy is off.
     *
     * @param pickerPort ext_proc (llm-d: 9002), 0 for a free one
     * @param healthPort gRPC health (llm-d: 9003), 0 for a free one
     * @param tls        the picker speaks TLS with a self-signed certificate, as llm-d's by default
     */
    public record ExtProc(int pickerPort, int healthPort, boolean tls) {
    }

    /**
     * A running pod: its name, where it listens, and its role.
     *
     * @param role its {@code llm-d.ai/role} label ({@code prefill}, {@code decode}), or null for none
     */
    public record Pod(String name, String host, int port, SimPod server, String role) {
        public String address() {
            return host + ":" + port;
        }
    }

    private static final Duration EVENTS_TIMEOUT = Duration.ofSeconds(20);
    public static final String PREFILL = "prefill";
    public static final String DECODE = "decode";

    private final List<Pod> pods;
    private final RouterServer router;
    private final boolean precise;
    private final LocalGateway gateway;

    private LocalCluster(List<Pod> pods, RouterServer router, boolean precise, LocalGateway gateway) {
        this.pods = List.copyOf(pods);
        this.router = router;
        this.precise = precise;
        this.gateway = gateway;
    }

    /** The gateway stand-in in front of the picker, or null when the router serves HTTP itself. */
    public LocalGateway gateway() {
        return gateway;
    }

    /** Whether the router routes by the pods' KV events. */
    public boolean precise() {
        return precise;
    }

    /** @throws ConfigException when the router's config file cannot be used; nothing is left running */
    public static LocalCluster start(Options o) throws ConfigException {
        SplittableRandom random = new SplittableRandom(o.seed());
        List<String> roles = roles(o);
        Map<String, PodNames> namesByRole = new HashMap<>();
        List<Pod> pods = new ArrayList<>();
        RouterServer router = null;
        LocalGateway gateway = null;
        try {
            for (int i = 0; i < o.pods(); i++) {
                String role = roles.get(i);
                String name = namesByRole.computeIfAbsent(String.valueOf(role),
                        r -> new PodNames(o.model(), role, random)).next();
                SimPodConfig.Builder b = SimPodConfig.builder()
                        .preset(o.preset())
                        .model(o.model())
                        .servedModelNames(List.of(o.model()))
                        .host(o.host())
                        .port(o.podBasePort() == 0 ? 0 : o.podBasePort() + i)
                        .podName(name)
                        .enablePromptTokensDetails(true)
                        .seed(o.seed() + i);
                if (o.precise()) {
                    String any = "tcp://" + zmqHost(o.host()) + ":*";
                    b.kvEvents(KvEventsConfig.zmq(any).withReplayEndpoint(any)
                            .withTopic("kv@" + name + "@" + o.model()));
                }
                SimPod pod = SimPod.start(b.build());
                pods.add(new Pod(name, o.host(), pod.port(), pod, role));
            }
            List<Endpoint> endpoints = pods.stream().map(p -> new Endpoint(p.name(), p.host(), p.port(), labels(p)))
                    .toList();
            RouterOptions ro = RouterOptions.defaults(endpoints).with(x -> {
                x.host = o.host();
                x.adminHost = o.host();
                x.port = o.port();
                x.adminPort = o.adminPort();
                x.configFile = o.config();
                x.precise = o.precise();
                x.pd = o.pd() != null;
                x.redisUrl = o.redisUrl();
                x.explainForAll = true; // a cluster on this machine, for its developer: every decision may be asked why
                if (o.extProc() != null) {
                    x.proxy = false;
                    x.extProcPort = o.extProc().pickerPort();
                    x.healthPort = o.extProc().healthPort();
                    x.secureServing = o.extProc().tls();
                }
            });
            router = RouterServer.start(ro);
            if (o.extProc() != null) {
                gateway = new LocalGateway(o.host(), o.port(), router.extProcPort(), o.extProc().tls());
                gateway.start();
            }
            LocalCluster cluster = new LocalCluster(pods, router, o.precise(), gateway);
            cluster.awaitScraped(Duration.ofSeconds(10));
            if (o.precise()) {
                cluster.awaitKvEvents();
            }
            return cluster;
        } catch (RuntimeException | ConfigException e) {
            cleanUp(pods, router, gateway);
            throw e;
        }
    }

    /** Each pod's role, in start order: prefill pods first, then decode; all null without a split. */
    private static List<String> roles(Options o) {
        List<String> roles = new ArrayList<>();
        for (int i = 0; i < o.pods(); i++) {
            roles.add(o.pd() == null ? null : i < o.pd().prefill() ? PREFILL : DECODE);
        }
        return roles;
    }

    private static void cleanUp(List<Pod> pods, RouterServer router, LocalGateway gateway) {
        if (gateway != null) {
            gateway.close();
        }
        if (router != null) {
            router.close();
        }
        pods.forEach(p -> p.server().close());
    }

    private static String zmqHost(String host) {
        return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    /**
     * A pod's role, as llm-d's P/D deployments label theirs; a publishing pod's endpoint says where its events and
     * replay socket are (ephemeral ports).
     */
    private static Map<String, String> labels(Pod p) {
        Map<String, String> labels = new HashMap<>();
        if (p.role() != null) {
            labels.put(RoleFilters.ROLE_LABEL, p.role());
        }
        if (p.server().kvEventsEndpoint() != null) {
            labels.put(PublisherAddress.EVENTS_LABEL, p.server().kvEventsEndpoint());
        }
        if (p.server().kvEventsReplayEndpoint() != null) {
            labels.put(PublisherAddress.REPLAY_LABEL, p.server().kvEventsReplayEndpoint());
        }
        return labels;
    }

    /** Waits until the router has read every pod's metrics once, so the first decision is not blind. */
    private void awaitScraped(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (router.pool().snapshot().endpoints().stream().allMatch(e -> e.metrics().known())
                    && pods.stream().allMatch(p -> router.catalog().status(p.name()).modelsKnown())) {
                return;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        List<String> missing = router.pool().snapshot().endpoints().stream()
                .filter(e -> !e.metrics().known()).map(EndpointState::name).toList();
        throw new IllegalStateException("the router could not scrape pods " + missing + " within " + timeout.toSeconds() + " s");
    }

    /**
     * Waits until the router has heard from every pod's publisher, so the first request's events are not lost to a
     * subscription still on its way (a PUB socket drops what it sends before then). A pod not heard from yet is
     * nudged: resetting an idle pod's empty prefix cache publishes {@code AllBlocksCleared}.
     */
    private void awaitKvEvents() {
        long deadline = System.nanoTime() + EVENTS_TIMEOUT.toNanos();
        while (true) {
            List<String> silent = pods.stream().filter(p -> router.kvEvents().batchesTaken(p.name()) == 0)
                    .map(Pod::name).toList();
            if (silent.isEmpty()) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the router heard no KV events from pods " + silent + " within "
                        + EVENTS_TIMEOUT.toSeconds() + " s");
            }
            pods.stream().filter(p -> silent.contains(p.name())).forEach(p -> p.server().resetPrefixCache());
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    public List<Pod> pods() {
        return pods;
    }

    public RouterServer router() {
        return router;
    }

    /** Where clients send requests: the router's API, or the gateway stand-in in front of the picker. */
    public String baseUrl() {
        return "http://" + router.options().host() + ":" + (gateway != null ? gateway.port() : router.port());
    }

    @Override
    public void close() {
        cleanUp(pods, router, gateway);
    }
}
