package dev.homing.core.endpoint;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable view of the pool for one scheduling cycle. Rebuilt off the request path whenever discovery or a scrape
 * changes something, and swapped in atomically, so a decision never sees a half-updated pool.
 */
public final class EndpointSnapshot {

    private final List<EndpointState> endpoints;
    private final Map<String, EndpointState> byName;
    private final long version;

    public EndpointSnapshot(List<EndpointState> endpoints, long version) {
        this.endpoints = List.copyOf(endpoints);
        for (int i = 0; i < this.endpoints.size(); i++) {
            if (this.endpoints.get(i).index() != i) {
                throw new IllegalArgumentException("endpoint " + this.endpoints.get(i).name() + " has index "
                        + this.endpoints.get(i).index() + " at position " + i);
            }
        }
        Map<String, EndpointState> names = new HashMap<>();
        for (EndpointState s : this.endpoints) {
            if (names.put(s.name(), s) != null) {
                throw new IllegalArgumentException("duplicate endpoint name " + s.name());
            }
        }
        this.byName = Map.copyOf(names);
        this.version = version;
    }

    public static EndpointSnapshot empty() {
        return new EndpointSnapshot(List.of(), 0);
    }

    public List<EndpointState> endpoints() {
        return endpoints;
    }

    public EndpointState get(String name) {
        return byName.get(name);
    }

    /**
     * The endpoint at {@code host:port} (the form of {@link Endpoint#address()}, which gateways report back), or null.
     * A scan: it is asked once for a request the gateway served elsewhere, not on every decision.
     */
    public EndpointState byAddress(String address) {
        for (EndpointState e : endpoints) {
            if (e.endpoint().address().equals(address)) {
                return e;
            }
        }
        return null;
    }

    public int size() {
        return endpoints.size();
    }

    public boolean isEmpty() {
        return endpoints.isEmpty();
    }

    /** Increases with every rebuild. */
    public long version() {
        return version;
    }
}
