package dev.homing.router.outlier;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import java.time.Duration;
import java.util.HashSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Which endpoints of the pool may be sent a request now, for both data planes. An endpoint is out while it is
 * ejected for failing requests ({@link Ejections}), while its {@code /health} probes fail or, after an ejection,
 * until one answers ({@link HealthChecks}), and while its scraped metrics are older than the staleness limit: as
 * llm-d's saturation detector counts such an endpoint fully saturated and filters it out, Homing sends it nothing
 * rather than route on numbers that may describe a pod long gone. If every endpoint's metrics are stale (the scraper
 * cannot reach any, or none serves them), staleness takes no one out: the detector's "none left, keep all".
 *
 * <p>The stale set is worked out off the request path every {@link #REFRESH} and read as one immutable set, so the
 * per-request check is three lookups. Nothing here holds a thread of a request.
 */
public final class PodHealth implements AutoCloseable {

    /** How often the stale set is worked out (well under llm-d's 2 s staleness limit). */
    static final Duration REFRESH = Duration.ofMillis(100);

    private final EndpointPool pool;
    private final LongSupplier nanos;
    private final long staleNanos;
    private final Ejections ejections;
    private final HealthChecks checks;
    private final Duration checkInterval;
    private final ScheduledExecutorService timer;
    private volatile Set<String> stale = Set.of();
    /** When each endpoint was first seen by {@link #refreshStale}: a never-scraped one's metrics are as old as that. */
    private final Map<String, Long> firstSeen = new HashMap<>();

    /**
     * @param staleAfter     metrics older than this take an endpoint out; zero for never (llm-d's
     *                       {@code --metrics-staleness-threshold}, 2 s)
     * @param probe          how an endpoint's health is asked, or null for no active checks
     * @param checkInterval  how often each endpoint is probed
     */
    public PodHealth(EndpointPool pool, LongSupplier nanos, Duration staleAfter, HealthChecks.Probe probe,
                     Duration checkInterval) {
        this.pool = pool;
        this.nanos = nanos;
        this.staleNanos = staleAfter.toNanos();
        this.checkInterval = checkInterval;
        this.checks = probe == null ? null : new HealthChecks(() -> pool.snapshot().endpoints(), probe,
                task -> Thread.ofVirtual().name("homing-health-check").start(task));
        this.ejections = new Ejections(nanos, this::ejected);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "homing-pod-health");
            t.setDaemon(true);
            return t;
        });
        pool.onRemoved(e -> ejections.forget(e.name()));
    }

    public void start() {
        if (staleNanos > 0) {
            timer.scheduleWithFixedDelay(this::refreshStale, 0, REFRESH.toNanos(), TimeUnit.NANOSECONDS);
        }
        if (checks != null) {
            timer.scheduleWithFixedDelay(this::checkRound, 0, checkInterval.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private void checkRound() {
        try {
            checks.round();
        } catch (RuntimeException e) {
            System.getLogger(PodHealth.class.getName()).log(System.Logger.Level.WARNING, "health checks failed", e);
        }
    }

    private void ejected(String pod) {
        if (checks != null) {
            EndpointState e = pool.snapshot().get(pod);
            checks.verify(pod, e == null ? null : e.endpoint());
        }
    }

    /** A request could not reach the endpoint (refused, connect timeout): it is probed at once, with active checks. */
    public void unreachable(String pod) {
        if (checks != null) {
            EndpointState e = pool.snapshot().get(pod);
            if (e != null) {
                checks.suspect(e.endpoint());
            }
        }
    }

    /** Works out which endpoints' metrics are stale now; on the timer's thread alone. */
    void refreshStale() {
        if (staleNanos <= 0) {
            return;
        }
        long now = nanos.getAsLong();
        List<EndpointState> endpoints = pool.snapshot().endpoints();
        Set<String> out = new HashSet<>();
        Set<String> names = new HashSet<>();
        for (EndpointState e : endpoints) {
            names.add(e.name());
            long seen = firstSeen.computeIfAbsent(e.name(), n -> now);
            // a pod just discovered has no metrics yet: it is not stale until it has gone that long without any
            long age = e.metrics().known() ? e.metrics().ageNanos(now) : now - seen;
            if (age > staleNanos) {
                out.add(e.name());
            }
        }
        firstSeen.keySet().retainAll(names);
        stale = out.size() == endpoints.size() ? Set.of() : Set.copyOf(out);
    }

    /** Whether a request may be sent to the endpoint now. */
    public boolean routable(String pod) {
        return !stale.contains(pod) && !ejections.ejected(pod) && (checks == null || checks.healthy(pod));
    }

    /** Whether the endpoint is out for failing, passively or actively (not for stale metrics), for the metrics. */
    public boolean failing(String pod) {
        return ejections.ejected(pod) || (checks != null && !checks.healthy(pod));
    }

    /** Whether the endpoint is out because its metrics are stale. */
    public boolean stale(String pod) {
        return stale.contains(pod);
    }

    /** The passive outlier detection, to be told of every request's outcome. */
    public Ejections ejections() {
        return ejections;
    }

    /** The active checks, or null when they are off. */
    public HealthChecks checks() {
        return checks;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
