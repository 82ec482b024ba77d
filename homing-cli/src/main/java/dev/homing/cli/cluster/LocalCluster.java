package dev.homing.cli.cluster;

import dev.homing.core.config.ConfigException;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import dev.homing.sim.engine.Preset;
import dev.homing.sim.http.SimPod;
import dev.homing.sim.http.SimPodConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A cluster on this machine: simulated vLLM pods, each on its own port, behind one router. What {@code homing up}
 * and {@code homing demo} run, and what end-to-end tests start.
 */
public final class LocalCluster implements AutoCloseable {

    /**
     * @param podBasePort first pod port (pods take consecutive ports), or 0 for free ports
     * @param port        router API port, 0 for a free one
     * @param adminPort   router admin port, 0 for a free one
     * @param config      the router's EndpointPickerConfig, or null for the default
     */
    public record Options(int pods, String model, Preset preset, String host, int port, int adminPort,
                          int podBasePort, long seed, java.nio.file.Path config) {
        public Options {
            if (pods < 1) {
                throw new IllegalArgumentException("--pods must be at least 1, got " + pods);
            }
        }
    }

    /** A running pod: its name and where it listens. */
    public record Pod(String name, String host, int port, SimPod server) {
        public String address() {
            return host + ":" + port;
        }
    }

    private final List<Pod> pods;
    private final RouterServer router;

    private LocalCluster(List<Pod> pods, RouterServer router) {
        this.pods = List.copyOf(pods);
        this.router = router;
    }

    /** @throws ConfigException when the router's config file cannot be used; nothing is left running */
    public static LocalCluster start(Options o) throws ConfigException {
        PodNames names = new PodNames(o.model(), new SplittableRandom(o.seed()));
        List<Pod> pods = new ArrayList<>();
        try {
            for (int i = 0; i < o.pods(); i++) {
                String name = names.next();
                SimPod pod = SimPod.start(SimPodConfig.builder()
                        .preset(o.preset())
                        .model(o.model())
                        .servedModelNames(List.of(o.model()))
                        .host(o.host())
                        .port(o.podBasePort() == 0 ? 0 : o.podBasePort() + i)
                        .podName(name)
                        .enablePromptTokensDetails(true)
                        .seed(o.seed() + i)
                        .build());
                pods.add(new Pod(name, o.host(), pod.port(), pod));
            }
            List<Endpoint> endpoints = pods.stream().map(p -> new Endpoint(p.name(), p.host(), p.port())).toList();
            RouterOptions ro = RouterOptions.defaults(endpoints).with(x -> {
                x.host = o.host();
                x.adminHost = o.host();
                x.port = o.port();
                x.adminPort = o.adminPort();
                x.configFile = o.config();
            });
            RouterServer router = RouterServer.start(ro);
            LocalCluster cluster = new LocalCluster(pods, router);
            cluster.awaitScraped(Duration.ofSeconds(10));
            return cluster;
        } catch (RuntimeException | ConfigException e) {
            pods.forEach(p -> p.server().close());
            throw e;
        }
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
        close();
        throw new IllegalStateException("the router could not scrape pods " + missing + " within " + timeout.toSeconds() + " s");
    }

    public List<Pod> pods() {
        return pods;
    }

    public RouterServer router() {
        return router;
    }

    public String baseUrl() {
        return "http://" + router.options().host() + ":" + router.port();
    }

    @Override
    public void close() {
        router.close();
        pods.forEach(p -> p.server().close());
    }
}
