package dev.homing.bench.policy;

import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * Several router replicas running one config behind a round robin (a Kubernetes Service spreading connections), on
 * the same pods: each request goes to the next replica in turn, which decides with its own director and pool. Every
 * replica scrapes every pod. What they share is their learned state ({@link LaggedLearnedState}); their in-flight
 * load is not modelled as shared (the router shares it through Redis too, 20 ms behind), so each sees the others'
 * requests only through the scrapes, which makes this model a pessimistic one.
 */
final class ReplicasPolicy implements Policy {

    private final String name;
    private final List<DirectorPolicy> replicas = new ArrayList<>();
    private int next;

    ReplicasPolicy(String name, String configText, String source, PolicyContext ctx, LaggedLearnedState learned,
                   int count) {
        this.name = name;
        for (int i = 0; i < count; i++) {
            replicas.add(new DirectorPolicy(name, configText, source, true, ctx, learned.replica(i)));
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Placement place(PolicyRequest request) throws PlacementException {
        DirectorPolicy replica = replicas.get(next);
        next = (next + 1) % replicas.size();
        return replica.place(request);
    }

    @Override
    public boolean readsBodies() {
        return true;
    }

    @Override
    public boolean readsMetrics() {
        return true;
    }

    @Override
    public void scraped(int pod, EndpointMetrics metrics) {
        for (DirectorPolicy r : replicas) {
            r.scraped(pod, metrics);
        }
    }

    @Override
    public boolean consumesKvEvents() {
        return replicas.getFirst().consumesKvEvents();
    }

    @Override
    public void kvEvents(int pod, List<KvCacheEvent> events) {
        for (DirectorPolicy r : replicas) {
            r.kvEvents(pod, events);
        }
    }
}
