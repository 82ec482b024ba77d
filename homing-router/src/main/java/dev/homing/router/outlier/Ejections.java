package dev.homing.router.outlier;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Passive outlier detection, as Envoy's: an endpoint whose requests fail {@link #CONSECUTIVE} times in a row (it
 * cannot be reached, it says nothing within the response timeout, it answers 5xx or 429) is ejected: no candidate for a
 * while, so no request waits on it or is retried away from it. The time doubles with each ejection in a row (1 s,
 * 2 s, ... at most 60 s). When it ends the endpoint is a candidate again, on probation: its next failure ejects it at
 * once for the next, longer time; its next success readmits it (the count and the time start over). Outcomes of
 * requests that were under way while it was ejected are not counted.
 *
 * <p>Bounded: an entry only for an endpoint that failed, dropped as it leaves the pool ({@link #forget}). Thread-safe;
 * the clock is injected.
 */
public final class Ejections {

    /** Failures in a row that eject an endpoint (Envoy's {@code consecutive_gateway_failure} counts the same kinds). */
    public static final int CONSECUTIVE = 3;
    public static final Duration BASE = Duration.ofSeconds(1);
    public static final Duration MAX = Duration.ofSeconds(60);

    /**
     * Whether a response status counts as a failure: 5xx, as Envoy's {@code consecutive_5xx}, and 429 too. Envoy leaves
     * 429 out; a model server that says it is full, though, answers fast and so looks idle to load-aware scoring, and
     * would draw ever more requests to turn away (a black hole) were it not left out for a while.
     */
    public static boolean counts(int status) {
        return status >= 500 || status == 429;
    }

    /** What {@link #forEach} tells of one endpoint. */
    public interface Visitor {
        void visit(String pod, boolean ejected, long ejections, long readmissions);
    }

    private static final class State {
        int failures;
        int inARow;
        boolean probation;
        /**
         * Ejected at some time: {@link #until} holds (a clock's nanos may be any number, 0 and below too). Both are
         * written under the state's lock and read without it on the request path ({@link #ejected}): until is
         * written before out, so a reader that sees out sees its until.
         */
        volatile boolean out;
        volatile long until;

        boolean ejectedAt(long now) {
            return out && until - now > 0;
        }
        long ejections;
        long readmissions;
    }

    private static final System.Logger LOG = System.getLogger(Ejections.class.getName());

    private final LongSupplier nanos;
    private final Consumer<String> onEjected;
    private final Map<String, State> states = new ConcurrentHashMap<>();

    public Ejections(LongSupplier nanos) {
        this(nanos, pod -> {
        });
    }

    /** @param onEjected told of each ejection (outside any lock): active checks then want a probe before readmitting */
    public Ejections(LongSupplier nanos, Consumer<String> onEjected) {
        this.nanos = nanos;
        this.onEjected = onEjected;
    }

    /** Whether the endpoint is ejected now: no candidate. */
    public boolean ejected(String pod) {
        State s = states.get(pod);
        return s != null && s.ejectedAt(nanos.getAsLong());
    }

    /** A request to the endpoint failed: unreachable, no answer in time, a 5xx or a 429. */
    public void failed(String pod) {
        State s = states.computeIfAbsent(pod, p -> new State());
        boolean ejectedNow = false;
        long time = 0;
        synchronized (s) {
            long now = nanos.getAsLong();
            if (s.ejectedAt(now)) {
                return; // a request sent before the ejection
            }
            s.failures++;
            if (s.probation || s.failures >= CONSECUTIVE) {
                ejectedNow = true;
                time = Math.min(MAX.toNanos(), BASE.toNanos() << Math.min(s.inARow, 20));
                s.until = now + time;
                s.out = true;
                s.inARow++;
                s.ejections++;
                s.probation = true;
                s.failures = 0;
            }
        }
        if (ejectedNow) {
            LOG.log(System.Logger.Level.WARNING, "endpoint {0} ejected for {1} ms: its requests failed in a row",
                    pod, String.valueOf(time / 1_000_000));
            onEjected.accept(pod);
        }
    }

    /** A request to the endpoint was answered (a status that does not {@link #counts count} as a failure). */
    public void succeeded(String pod) {
        State s = states.get(pod);
        if (s == null) {
            return; // the common case: an endpoint that never failed costs one lookup
        }
        synchronized (s) {
            if (s.ejectedAt(nanos.getAsLong())) {
                return; // a request sent before the ejection
            }
            if (s.probation) {
                LOG.log(System.Logger.Level.INFO, "endpoint {0} readmitted: it answered again", pod);
                s.readmissions++;
                s.probation = false;
                s.inARow = 0;
            }
            s.failures = 0;
        }
    }

    /** Drops what is known of an endpoint that left the pool. */
    public void forget(String pod) {
        states.remove(pod);
    }

    /** Every endpoint that has failed, for the metrics. */
    public void forEach(Visitor visitor) {
        long now = nanos.getAsLong();
        states.forEach((pod, s) -> {
            boolean ejected;
            long ejections;
            long readmissions;
            synchronized (s) {
                ejected = s.ejectedAt(now);
                ejections = s.ejections;
                readmissions = s.readmissions;
            }
            visitor.visit(pod, ejected, ejections, readmissions);
        });
    }
}
