package dev.homing.bench.policy;

import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.List;
import java.util.Map;

/**
 * A policy that never sees a request's priority or flow: every request reaches it at priority 0 and of no flow, so
 * legacy admission sheds nothing (what a router without priorities does).
 */
final class PriorityBlind implements Policy {

    private final Policy inner;

    PriorityBlind(Policy inner) {
        this.inner = inner;
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public Placement place(PolicyRequest r) throws PlacementException {
        return inner.place(new PolicyRequest(r.id(), r.fields(), r.prompt(), r.tokens(), r.maxTokens()));
    }

    @Override
    public boolean readsBodies() {
        return inner.readsBodies();
    }

    @Override
    public boolean readsMetrics() {
        return inner.readsMetrics();
    }

    @Override
    public void scraped(int pod, EndpointMetrics metrics) {
        inner.scraped(pod, metrics);
    }

    @Override
    public boolean consumesKvEvents() {
        return inner.consumesKvEvents();
    }

    @Override
    public Map<String, Map<String, Double>> pluginReports() {
        return inner.pluginReports();
    }

    @Override
    public void kvEvents(int pod, List<KvCacheEvent> events) {
        inner.kvEvents(pod, events);
    }
}
