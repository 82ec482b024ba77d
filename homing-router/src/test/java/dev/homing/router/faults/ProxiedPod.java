package dev.homing.router.faults;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.router.RouterOptions;
import dev.homing.router.fixtures.HangingProxy;
import dev.homing.router.fixtures.TestCluster;
import dev.homing.sim.http.SimPod;
import dev.homing.sim.http.SimPodConfig;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/** A cluster whose last pod the router reaches through a {@link HangingProxy}, to make that pod misbehave. */
final class ProxiedPod implements AutoCloseable {

    final TestCluster cluster;
    final HangingProxy proxy;
    final String name;

    private ProxiedPod(TestCluster cluster, HangingProxy proxy, String name) {
        this.cluster = cluster;
        this.proxy = proxy;
        this.name = name;
    }

    static ProxiedPod start(int pods, UnaryOperator<SimPodConfig.Builder> pod,
                            Consumer<RouterOptions.Builder> router) {
        HangingProxy[] proxy = new HangingProxy[1];
        TestCluster cluster = TestCluster.start(pods, pod, (o, started) -> {
            SimPod last = started.get(started.size() - 1);
            proxy[0] = HangingProxy.to(last.config().host(), last.port());
            List<Endpoint> endpoints = new ArrayList<>(o.endpoints().subList(0, started.size() - 1));
            Endpoint e = o.endpoints().get(started.size() - 1);
            endpoints.add(new Endpoint(e.name(), "127.0.0.1", URI.create(proxy[0].url()).getPort(), e.labels()));
            return o.with(b -> {
                b.endpoints = endpoints;
                router.accept(b);
            });
        });
        return new ProxiedPod(cluster, proxy[0], "pod-" + (pods - 1));
    }

    @Override
    public void close() {
        cluster.close();
        proxy.close();
    }
}
