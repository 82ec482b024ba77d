package dev.homing.core.plugins.scorer.predicted;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Time to first token on an endpoint: the prefill queued ahead of a request, then its own.
 * <pre>
 *   TTFT ≈ (θ0 + B + w) · s        w = θ1·u + θ2·A + θ3·D·u + θ4·D
 * </pre>
 * w is the request's own prefill: u its uncached prompt tokens there, A the attention part of that prefill
 * ({@code u · (c + u/2)} after c cached tokens), D the requests the endpoint is decoding (their tokens share each step
 * of the prefill, θ3, and the step that returns the first token is longer the more there are, θ4). That is how a vLLM
 * step is priced: dense work per token, attention per query-key pair, decode tokens beside the prefill chunk. Without
 * θ4 a short prompt that hits the cache of a pod decoding a hundred requests looks as quick as on an idle pod, and hot
 * prefixes pile onto their first pod (on {@code suite-zipf} its p90 was 4.6 % higher). θ0 takes what no feature
 * explains (front end, network, the wait for the current step). B is the backlog: the own work w of every request this
 * router sent to the endpoint that has not had its first token, priced with the same θ, less the time the endpoint has
 * worked since the last first token it returned (or since it was idle), credited to the oldest of them only: an FCFS
 * queue whose head drains in real time, so an endpoint that stalls (its KV cache full, its first tokens late) stays as
 * busy as its queue instead of looking idle. s is the endpoint's speed factor.
 *
 * <p>θ is fitted online, by recursive least squares, only on requests that found nothing queued ahead (B = 0), so
 * that the prices never feed on themselves (a backlog priced by θ, used to fit θ, can run away); one fit serves the
 * fleet, whose pods usually run one model on one kind of GPU. The speed factor of an endpoint is the running ratio of
 * its observed to predicted TTFTs over every request it answered, queued or not, drifting back to 1 when it goes
 * unobserved (so a pod once slow is tried again). No coefficient is preset: until the fit has {@link #MATURE}
 * observations and prices prefill above 0, {@link #predict} returns NaN and callers rank by tokens.
 *
 * <p>Bounded: at most {@link #MAX_ENDPOINTS} endpoints, the least recently used dropped; an endpoint's pending
 * requests are this router's in flight there, each removed at its first token or its end. Thread-safe.
 */
final class TtftModel {

    static final int FEATURES = 5;
    /** Observations before the fit is trusted. */
    static final int MATURE = 12;
    static final int MAX_ENDPOINTS = 4096;
    /** The last ~1,000 unqueued observations weigh. */
    static final double FORGETTING = 0.999;
    /** Weight of one observation in an endpoint's speed factor, and how fast an unobserved factor returns to 1. */
    static final double SPEED_WEIGHT = 0.05;
    static final double SPEED_HALF_LIFE_SECONDS = 300;
    /** The speed factor's range: a pod between 4x slower and 4x faster than the fleet's fit. */
    static final double SPEED_RANGE = 4;
    /** Feature scales, so that each lies around 0.1 to 100 for the prompts of production traces. */
    private static final double TOKENS = 1e4;
    private static final double ATTENTION = 1e8;
    private static final double INTERFERENCE = 1e5;
    private static final double BATCH = 64;

    private final LinearFit fleet = new LinearFit(FEATURES, FORGETTING);
    private final Map<String, Endpoint> endpoints = new LinkedHashMap<>(16, 0.75f, true);
    private final double[] theta = new double[FEATURES];
    private long thetaAt = -1;

    /** One request's prefill as the pick saw it, before the coefficients price it. */
    record Work(double uncached, double attention, double decoding, double kvUsage) {
        /** The features of this prefill on an endpoint with nothing queued ahead. */
        double[] features() {
            return new double[] {1, uncached / TOKENS, attention / ATTENTION, decoding * uncached / INTERFERENCE,
                decoding / BATCH};
        }

        /**
         * Seconds of the endpoint's time it takes at {@code theta}: every term but the intercept, summed in the
         * features' order without making them (a backlog prices every pending request at every pick).
         */
        double seconds(double[] theta) {
            double s = 0;
            s += theta[1] * (uncached / TOKENS);
            s += theta[2] * (attention / ATTENTION);
            s += theta[3] * (decoding * uncached / INTERFERENCE);
            s += theta[4] * (decoding / BATCH);
            return Math.max(0, s);
        }
    }

    /** A request of this router waiting for its first token on an endpoint. */
    static final class Pending {
        final Work work;

        Pending(Work work) {
            this.work = work;
        }
    }

    private static final class Endpoint {
        final Set<Pending> pending = new LinkedHashSet<>();
        long anchor;
        double logSpeed;
        long speedAt;
    }

    /**
     * What one candidate looks like to a decision, read under one lock: the backlog ahead (this router's pending
     * prefill, plus {@code othersSeconds} for other routers' waiting requests), whether this router has requests
     * pending there, the predicted TTFT (NaN while the fit is not trusted), the request's own prefill in seconds, and
     * the endpoint's speed factor (both already in the prediction).
     */
    record Estimate(double backlog, boolean queued, double predicted, double ownSeconds, double speed) {
    }

    synchronized Estimate estimate(String endpoint, Work own, double othersSeconds, long now) {
        Endpoint e = endpoints.get(endpoint);
        boolean queued = e != null && !e.pending.isEmpty();
        if (!trusted()) {
            return new Estimate(othersSeconds, queued, Double.NaN, 0, 1);
        }
        double backlog = backlog(e, now) + othersSeconds;
        double speed = e == null ? 1 : Math.exp(decayed(e, now));
        double ownSeconds = own.seconds(theta());
        return new Estimate(backlog, queued, (theta()[0] + backlog + ownSeconds) * speed, ownSeconds, speed);
    }

    /** Seconds of prefill queued ahead on the endpoint at {@code now}, priced with the current fit (0 untrusted). */
    synchronized double backlog(String endpoint, long now) {
        return backlog(endpoints.get(endpoint), now);
    }

    /** As {@link #backlog(String, long)}, for an endpoint already looked up (null: none known). */
    private double backlog(Endpoint e, long now) {
        if (e == null || e.pending.isEmpty() || !trusted()) {
            return 0;
        }
        double[] theta = theta();
        double work = 0;
        double head = -1;
        for (Pending p : e.pending) {
            double w = p.work.seconds(theta);
            if (head < 0) {
                head = w;
            }
            work += w;
        }
        // Only the oldest request is credited with the time since the anchor: FCFS, the others wait for it. An
        // endpoint that stalls (its KV full, its first tokens late) then stays as busy as its queue, not idle.
        return work - head + Math.max(0, head - Math.max(0, now - e.anchor) / 1e9);
    }

    /** Whether the endpoint has requests of this router still to prefill. */
    synchronized boolean queued(String endpoint) {
        Endpoint e = endpoints.get(endpoint);
        return e != null && !e.pending.isEmpty();
    }

    /** The request's own work, priced now (0 untrusted). */
    synchronized double seconds(Work own) {
        return trusted() ? own.seconds(theta()) : 0;
    }

    /** A request was sent to the endpoint: its prefill joins the queue there. */
    synchronized Pending enqueue(String endpoint, Work work, long now) {
        Endpoint e = endpoint(endpoint);
        if (e.pending.isEmpty()) {
            e.anchor = now; // an idle endpoint starts on it at once
        }
        Pending p = new Pending(work);
        e.pending.add(p);
        return p;
    }

    /**
     * The request's first token arrived at {@code now}, {@code ttftSeconds} after its pick, for which {@link #predict}
     * had said {@code predicted} (NaN if untrusted): it leaves the queue, whose rest is counted from now; the speed
     * factor learns from it; the fit learns only when {@code unqueued} (nothing was ahead of it at the pick).
     */
    synchronized void firstToken(String endpoint, Pending p, boolean unqueued, double predicted, double ttftSeconds,
                                 long now) {
        Endpoint e = endpoints.get(endpoint);
        if (e != null && e.pending.remove(p)) {
            e.anchor = now;
        }
        if (!(ttftSeconds > 0)) {
            return;
        }
        if (unqueued) {
            learn(p.work, ttftSeconds);
        }
        if (e != null && predicted > 0) {
            double ratio = Math.log(Math.max(1 / SPEED_RANGE, Math.min(SPEED_RANGE, ttftSeconds / predicted)));
            // the prediction already carried the old factor: move the factor by the residual
            e.logSpeed = Math.max(-Math.log(SPEED_RANGE), Math.min(Math.log(SPEED_RANGE),
                    decayed(e, now) + SPEED_WEIGHT * ratio));
            e.speedAt = now;
        }
    }

    /** The fit learns that a prefill of {@code work}, nothing queued ahead, took {@code ttftSeconds} to its token. */
    synchronized void learn(Work work, double ttftSeconds) {
        if (ttftSeconds > 0) {
            fleet.observe(work.features(), ttftSeconds);
        }
    }

    /** The request ended without a first token (error, cancel): it leaves the queue, unlearnt. */
    synchronized void abandon(String endpoint, Pending p) {
        Endpoint e = endpoints.get(endpoint);
        if (e != null) {
            e.pending.remove(p);
        }
    }

    /** Predicted seconds to the first token behind {@code backlog} seconds, or NaN while the fit is not trusted. */
    synchronized double predict(String endpoint, Work own, double backlog, long now) {
        if (!trusted()) {
            return Double.NaN;
        }
        Endpoint e = endpoints.get(endpoint);
        double[] theta = theta();
        return (theta[0] + backlog + own.seconds(theta)) * (e == null ? 1 : Math.exp(decayed(e, now)));
    }

    synchronized boolean trusted() {
        return fleet.observations() >= MATURE && fleet.coefficient(1) + fleet.coefficient(2) > 0;
    }

    /** Whether the fit has ever had the observations it needs (trusted or not now). */
    synchronized boolean matured() {
        return fleet.observations() >= MATURE;
    }

    synchronized double[] coefficients() {
        return theta().clone();
    }

    synchronized double speed(String endpoint, long now) {
        Endpoint e = endpoints.get(endpoint);
        return e == null ? 1 : Math.exp(decayed(e, now));
    }

    synchronized void forget(String endpoint) {
        endpoints.remove(endpoint);
    }

    synchronized int endpointCount() {
        return endpoints.size();
    }

    synchronized int pendingCount(String endpoint) {
        Endpoint e = endpoints.get(endpoint);
        return e == null ? 0 : e.pending.size();
    }

    /** The fit's coefficients, copied again only when it has seen a new observation. */
    private double[] theta() {
        if (thetaAt != fleet.observations()) {
            for (int i = 0; i < FEATURES; i++) {
                theta[i] = fleet.coefficient(i);
            }
            thetaAt = fleet.observations();
        }
        return theta;
    }

    private Endpoint endpoint(String name) {
        Endpoint e = endpoints.get(name);
        if (e == null) {
            if (endpoints.size() >= MAX_ENDPOINTS) {
                endpoints.remove(endpoints.keySet().iterator().next());
            }
            e = new Endpoint();
            endpoints.put(name, e);
        }
        return e;
    }

    private static double decayed(Endpoint e, long now) {
        double age = Math.max(0, now - e.speedAt) / 1e9;
        return e.logSpeed * Math.pow(0.5, age / SPEED_HALF_LIFE_SECONDS);
    }
}
