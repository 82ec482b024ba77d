package dev.homing.router.discovery;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import java.util.List;

/** The endpoints given on the command line: published at start, synced at once, never changed. */
public final class StaticDiscovery implements Discovery {

    private final EndpointPool pool;
    private final List<Endpoint> endpoints;
    private final Runnable syncChanged;
    private volatile boolean synced;

    /** @param syncChanged told when {@link #synced()} changes */
    public StaticDiscovery(EndpointPool pool, List<Endpoint> endpoints, Runnable syncChanged) {
        this.pool = pool;
        this.endpoints = List.copyOf(endpoints);
        this.syncChanged = syncChanged;
    }

    @Override
    public void start() {
        pool.setEndpoints(endpoints);
        synced = true;
        syncChanged.run();
    }

    @Override
    public boolean synced() {
        return synced;
    }

    @Override
    public String describe() {
        return endpoints.size() + " endpoints";
    }

    @Override
    public void close() {
    }
}
