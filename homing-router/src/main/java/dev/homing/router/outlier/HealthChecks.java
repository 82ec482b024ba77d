package dev.homing.router.outlier;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointState;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Active health checks: each endpoint's {@code GET /health} (vLLM's liveness route, 200 while its engine runs) on a
 * fixed interval, off the request path. {@link #UNHEALTHY_THRESHOLD} failed probes in a row make an endpoint no
 * candidate, and one that could not even be connected to (nothing listens: the process is gone) does at once; one
 * probe answered 200 makes it one again. A request that could not reach an endpoint has it probed at once
 * ({@link #suspect}), so a pod killed under load is out within a probe's round trip, and one killed while idle within
 * an interval. This finds a dead pod that no request is sent to, and it is
 * what lets an ejected pod back ({@link #verify}): a pod that passive detection ejected takes requests again only
 * once its ejection has run out <em>and</em> a probe since the ejection was answered, so a killed pod costs no probe
 * request of a client's once it is out.
 *
 * <p>At most one probe per endpoint is in flight; a pod that hangs skips rounds instead of piling probes up. Bounded:
 * an entry per endpoint of the pool, pruned to it each round.
 */
public final class HealthChecks {

    /** Probes failed in a row that take an endpoint out (a lost probe alone is no verdict). */
    public static final int UNHEALTHY_THRESHOLD = 2;

    /** Asks one endpoint whether it is healthy; blocking, bounded by its own timeouts. */
    @FunctionalInterface
    public interface Probe {
        Verdict probe(Endpoint endpoint) throws Exception;
    }

    /** What a probe found. A probe that throws counts as {@link #UNHEALTHY}. */
    public enum Verdict {
        HEALTHY,
        /** It answered, but not 200, or not in time. */
        UNHEALTHY,
        /** No connection could be made: no verdict to average over, the endpoint is out at once. */
        UNREACHABLE
    }

    private static final class State {
        int failures;
        boolean healthy = true;
        /** Ejected since its last good probe: out until a probe answers. */
        boolean unverified;
        long probes;
        long failed;
        /** {@code healthy && !unverified}, set under the lock, read without it on the request path. */
        volatile boolean routable = true;
    }

    private static final System.Logger LOG = System.getLogger(HealthChecks.class.getName());

    private final Supplier<List<EndpointState>> endpoints;
    private final Probe probe;
    private final Executor probes;
    private final Map<String, State> states = new ConcurrentHashMap<>();
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();

    /**
     * @param endpoints the pool's endpoints now
     * @param probes    where probes run (each blocks for up to its timeout)
     */
    public HealthChecks(Supplier<List<EndpointState>> endpoints, Probe probe, Executor probes) {
        this.endpoints = endpoints;
        this.probe = probe;
        this.probes = probes;
    }

    /** One round: every endpoint of the pool not already being probed is probed; state of endpoints gone is dropped. */
    public void round() {
        Set<String> names = new HashSet<>();
        for (EndpointState e : endpoints.get()) {
            names.add(e.name());
            probeNow(e.endpoint());
        }
        states.keySet().retainAll(names);
    }

    private void probeNow(Endpoint endpoint) {
        if (!inFlight.add(endpoint.name())) {
            return;
        }
        try {
            probes.execute(() -> {
                try {
                    Verdict v;
                    try {
                        v = probe.probe(endpoint);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return; // closing: no verdict
                    } catch (Exception e) {
                        v = Verdict.UNHEALTHY;
                    }
                    record(endpoint.name(), v);
                } finally {
                    inFlight.remove(endpoint.name());
                }
            });
        } catch (RuntimeException rejected) { // closing
            inFlight.remove(endpoint.name());
        }
    }

    /** A probe's verdict. */
    public void record(String pod, Verdict v) {
        State s = states.computeIfAbsent(pod, p -> new State());
        boolean was;
        boolean now;
        synchronized (s) {
            was = s.healthy;
            s.probes++;
            if (v == Verdict.HEALTHY) {
                s.failures = 0;
                s.healthy = true;
                s.unverified = false;
            } else {
                s.failed++;
                s.failures++;
                if (s.failures >= UNHEALTHY_THRESHOLD || v == Verdict.UNREACHABLE) {
                    s.healthy = false;
                }
            }
            s.routable = s.healthy && !s.unverified;
            now = s.healthy;
        }
        if (was != now) {
            LOG.log(now ? System.Logger.Level.INFO : System.Logger.Level.WARNING, now
                    ? "endpoint {0} is healthy again: GET /health answered" : "endpoint {0} is unhealthy: GET /health "
                    + (v == Verdict.UNREACHABLE ? "could not connect" : "failed " + UNHEALTHY_THRESHOLD
                    + " times in a row"), pod);
        }
    }

    /**
     * An endpoint was ejected for failing requests: it stays out until a probe answers, and one is sent now, so a
     * pod that is up again is let back as soon as its ejection ends.
     */
    public void verify(String pod, Endpoint endpoint) {
        State s = states.computeIfAbsent(pod, p -> new State());
        synchronized (s) {
            s.unverified = true;
            s.routable = false;
        }
        if (endpoint != null) {
            probeNow(endpoint);
        }
    }

    /** A request could not reach the endpoint: it is probed now rather than at the next round. */
    public void suspect(Endpoint endpoint) {
        probeNow(endpoint);
    }

    /** Whether the endpoint may take requests as far as its probes tell (one never probed may). */
    public boolean healthy(String pod) {
        State s = states.get(pod);
        return s == null || s.routable;
    }

    /** Probes sent to the endpoint and how many failed, for the metrics; {@code {0, 0}} for one never probed. */
    public long[] counts(String pod) {
        State s = states.get(pod);
        if (s == null) {
            return new long[] {0, 0};
        }
        synchronized (s) {
            return new long[] {s.probes, s.failed};
        }
    }
}
