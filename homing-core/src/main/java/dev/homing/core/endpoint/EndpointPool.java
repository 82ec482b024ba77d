package dev.homing.core.endpoint;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The set of endpoints and what is known about them. Discovery and the scraper write here (off the request path);
 * schedulers read {@link #snapshot()}, a volatile read of an immutable object.
 */
public final class EndpointPool {

    private final boolean creditUnreflected;
    private final Object writeLock = new Object();
    private final Map<String, Member> members = new LinkedHashMap<>();
    private final List<Consumer<Endpoint>> removalListeners = new CopyOnWriteArrayList<>();
    private volatile LoadListener loadListener = LoadListener.NONE;
    /** What every member's load reports to: forwards to the listener set now, so one can be set after members exist. */
    private final LoadListener forwarder = new LoadListener() {
        @Override
        public void acquired(String endpoint, long totalTokens) {
            loadListener.acquired(endpoint, totalTokens);
        }

        @Override
        public void released(String endpoint, long totalTokens) {
            loadListener.released(endpoint, totalTokens);
        }
    };
    private volatile EndpointSnapshot snapshot = EndpointSnapshot.empty();
    private long version;

    /**
     * @param creditUnreflected add load this router sent since the last scrape to scraped queue and KV values
     *                          (Homing's default; off reproduces llm-d's stale-metrics behaviour)
     */
    public EndpointPool(boolean creditUnreflected) {
        this.creditUnreflected = creditUnreflected;
    }

    public EndpointPool() {
        this(true);
    }

    private static final class Member {
        /** Replaced in place when only its labels change; under {@code writeLock}. */
        Endpoint endpoint;
        final EndpointLoad load;
        EndpointMetrics metrics = EndpointMetrics.UNKNOWN;

        Member(Endpoint endpoint, LoadListener listener) {
            this.endpoint = endpoint;
            this.load = new EndpointLoad(endpoint.name(), listener);
        }
    }

    public EndpointSnapshot snapshot() {
        return snapshot;
    }

    /**
     * Replaces the membership. Endpoints that stay keep their metrics and load; removed ones are announced. An
     * endpoint whose name, host and port are unchanged stays, whatever its labels (they are updated in place and the
     * next snapshot carries them), so what was learnt about it (prefix index, stored responses) is kept; one whose
     * address changed is another pod behind the same name: it is removed, announced, and added as new.
     */
    public void setEndpoints(List<Endpoint> endpoints) {
        List<Endpoint> removed = new ArrayList<>();
        synchronized (writeLock) {
            Map<String, Endpoint> wanted = new LinkedHashMap<>();
            for (Endpoint e : endpoints) {
                if (wanted.put(e.name(), e) != null) {
                    throw new IllegalArgumentException("duplicate endpoint name " + e.name());
                }
            }
            members.entrySet().removeIf(m -> {
                Member member = m.getValue();
                Endpoint now = wanted.get(m.getKey());
                if (now != null && now.host().equals(member.endpoint.host()) && now.port() == member.endpoint.port()) {
                    member.endpoint = now;
                    return false;
                }
                removed.add(member.endpoint);
                return true;
            });
            for (Endpoint e : wanted.values()) {
                members.computeIfAbsent(e.name(), n -> new Member(e, forwarder));
            }
            rebuild();
        }
        for (Endpoint e : removed) {
            removalListeners.forEach(l -> l.accept(e));
        }
    }

    /**
     * Stores a scrape's result.
     *
     * @param scrapeMark what {@link EndpointLoad#scrapeStarted()} returned when this scrape began
     */
    public void updateMetrics(String name, EndpointMetrics metrics, long scrapeMark) {
        Objects.requireNonNull(metrics, "metrics");
        synchronized (writeLock) {
            Member m = members.get(name);
            if (m == null) {
                return; // removed while the scrape was in flight
            }
            m.metrics = metrics;
            m.load.scrapeCompleted(scrapeMark);
            rebuild();
        }
    }

    /** The live load counters of an endpoint, or null when it is not in the pool. */
    public EndpointLoad load(String name) {
        synchronized (writeLock) {
            Member m = members.get(name);
            return m == null ? null : m.load;
        }
    }

    /**
     * Sets who hears every credit and release of every member's load (the router's shared-load publisher), in place
     * of the previous one. Set it before requests flow: a lease credited earlier is heard only at its release.
     */
    public void setLoadListener(LoadListener listener) {
        loadListener = Objects.requireNonNull(listener, "listener");
    }

    public void onRemoved(Consumer<Endpoint> listener) {
        removalListeners.add(listener);
    }

    private void rebuild() {
        List<EndpointState> states = new ArrayList<>(members.size());
        for (Member m : members.values()) {
            states.add(new EndpointState(m.endpoint, states.size(), m.metrics, m.load, creditUnreflected));
        }
        snapshot = new EndpointSnapshot(states, ++version);
    }
}
