package dev.homing.core.director;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointSnapshot;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.endpoint.Lease;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.requestcontrol.Admitter;
import dev.homing.core.framework.requestcontrol.DataProducer;
import dev.homing.core.framework.requestcontrol.PreRequest;
import dev.homing.core.framework.requestcontrol.Rerouted;
import dev.homing.core.framework.requestcontrol.SaturationDetector;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PrefixMatch;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.core.time.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * Places requests (llm-d's director): admission, data producers, scheduling, then credit of the load and the
 * pre-request hooks.
 *
 * <p>Decisions are serialised. Scoring, picking, crediting the pick's load and recording its prefix blocks happen
 * under one lock, so the next decision always sees the previous one: a burst cannot read the same stale scores and
 * land on one pod. A decision takes microseconds; a request holds a pod for seconds, so the lock never limits
 * throughput. Expensive per-request work (hashing the prompt) runs before the lock.
 *
 * <p>A request that continues a stored response ({@code previous_response_id}) has one candidate for its primary
 * profile: the endpoint that answered that response ({@link ResponseAffinity}), as long as it is eligible; otherwise it
 * is placed as any other. Other profiles (a P/D config's prefill) choose among every candidate as usual.
 */
public final class Director {

    private final EndpointPool pool;
    private final Ticker ticker;
    private final ReentrantLock decisionLock = new ReentrantLock();
    private final ResponseAffinity responses;
    private volatile RoutingPolicy policy;

    public Director(EndpointPool pool, RoutingPolicy policy, Ticker ticker) {
        this(pool, policy, ticker, new ResponseAffinity(ResponseAffinity.DEFAULT_CAPACITY));
    }

    /** @param responses where stored responses were answered; the director forgets an endpoint's when it leaves */
    public Director(EndpointPool pool, RoutingPolicy policy, Ticker ticker, ResponseAffinity responses) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.responses = Objects.requireNonNull(responses, "responses");
        pool.onRemoved(e -> responses.forgetEndpoint(e.name()));
    }

    /** Which endpoint answered each recent stored response. */
    public ResponseAffinity responses() {
        return responses;
    }

    public RoutingPolicy policy() {
        return policy;
    }

    /** Swaps in a new policy; decisions already under way finish with the old one. */
    public void setPolicy(RoutingPolicy next) {
        policy = Objects.requireNonNull(next, "policy");
    }

    public EndpointPool pool() {
        return pool;
    }

    /** Whether an endpoint of this name is in the pool now. */
    boolean inPool(String endpoint) {
        return pool.snapshot().get(endpoint) != null;
    }

    public Dispatch dispatch(InferenceRequest request) throws SchedulingException {
        return dispatch(request, e -> true);
    }

    /**
     * Places a request among the endpoints that {@code eligible} accepts (it excludes endpoints that failed on an
     * earlier attempt or do not serve the model).
     */
    public Dispatch dispatch(InferenceRequest request, Predicate<EndpointState> eligible) throws SchedulingException {
        RoutingPolicy p = policy;
        EndpointSnapshot snapshot = pool.snapshot();
        Cycle cycle = new Cycle(request, snapshot, ticker.nanos());
        List<EndpointState> candidates = candidates(snapshot, request, eligible);
        EndpointState pinned = pin(candidates, request, false);
        admit(p, cycle, candidates);
        prepare(p, cycle);
        decisionLock.lock();
        try {
            SchedulingResult result = schedule(p, cycle, candidates, pinned);
            List<Lease> leases = credit(cycle, result);
            try {
                for (PreRequest pre : p.preRequests()) {
                    pre.preRequest(cycle, result);
                }
            } catch (RuntimeException e) {
                leases.forEach(Lease::close);
                throw e;
            }
            return new Dispatch(this, p, cycle, result, leases, responses);
        } finally {
            decisionLock.unlock();
        }
    }

    /**
     * Moves a placed request to the endpoint that served it (see {@link Dispatch#servedBy}), under the decision lock:
     * the next decision sees the load and the prefix blocks where they are.
     */
    void reroute(Dispatch dispatch, RoutingPolicy p, EndpointState served) {
        decisionLock.lock();
        try {
            EndpointState picked = dispatch.target();
            if (dispatch.isClosed() || picked.name().equals(served.name())) {
                return;
            }
            // The cycle's own view of the endpoint, whose index is the one the cycle's prefix match uses; an endpoint
            // that joined since the decision has no match in it and is credited the whole prompt.
            EndpointState inCycle = dispatch.cycle().snapshot().get(served.name());
            EndpointState to = inCycle != null ? inCycle : served;
            if (!dispatch.moveTo(to, lease(dispatch.cycle(), to, inCycle != null))) {
                return;
            }
            for (Rerouted r : p.rerouted()) {
                r.rerouted(dispatch.cycle(), picked, to);
            }
        } finally {
            decisionLock.unlock();
        }
    }

    /**
     * What {@link #dispatch} would decide now, without deciding it: no load is credited, no pre-request hook runs,
     * and plugins are told it is a dry run so they change no shared state. For {@code /debug/schedule}.
     */
    public Decision explain(InferenceRequest request, Predicate<EndpointState> eligible)
            throws SchedulingException {
        RoutingPolicy p = policy;
        EndpointSnapshot snapshot = pool.snapshot();
        Cycle cycle = new Cycle(request, snapshot, ticker.nanos(), true);
        List<EndpointState> candidates = candidates(snapshot, request, eligible);
        EndpointState pinned = pin(candidates, request, true);
        prepare(p, cycle);
        decisionLock.lock();
        try {
            return new Decision(cycle, schedule(p, cycle, candidates, pinned));
        } finally {
            decisionLock.unlock();
        }
    }

    /**
     * Admission (llm-d's {@code requestcontrol/admission.go}): without flow control, a sheddable request (priority
     * below 0) is refused while the pool is saturated, and requests of priority 0 or more always pass (under flow
     * control they waited in its queues instead, before reaching the director); then every admitter must pass.
     */
    private static void admit(RoutingPolicy p, Cycle cycle, List<EndpointState> candidates)
            throws SchedulingException {
        SaturationDetector detector = p.saturationDetector();
        if (!p.flowControlled() && cycle.request().sheddable() && detector != null) {
            double saturation = detector.saturation(candidates, cycle.startNanos());
            if (saturation >= 1.0) {
                throw SchedulingException.saturated(String.format(Locale.ROOT,
                        "system saturated, sheddable request dropped (priority %d, pool saturation %.2f)",
                        cycle.request().priority(), saturation));
            }
        }
        for (Admitter a : p.admitters()) {
            a.admit(cycle, candidates);
        }
    }

    /** Producers' work that needs no lock (hashing, tokenizing), before the decision. */
    private static void prepare(RoutingPolicy p, Cycle cycle) {
        for (DataProducer d : p.producers()) {
            d.prepare(cycle);
        }
    }

    /**
     * The decision itself, under the decision lock: producers read shared indexes for every candidate, then the
     * profiles run, the primary one held to {@code pinned} when not null.
     */
    private static SchedulingResult schedule(RoutingPolicy p, Cycle cycle, List<EndpointState> candidates,
                                             EndpointState pinned) throws SchedulingException {
        for (DataProducer d : p.producers()) {
            d.produce(cycle, candidates);
        }
        return p.scheduler().schedule(cycle, candidates, pinned);
    }

    private static List<EndpointState> candidates(EndpointSnapshot snapshot, InferenceRequest request,
                                                  Predicate<EndpointState> eligible) throws SchedulingException {
        List<EndpointState> candidates = new ArrayList<>(snapshot.size());
        for (EndpointState e : snapshot.endpoints()) {
            if (eligible.test(e)) {
                candidates.add(e);
            }
        }
        if (candidates.isEmpty()) {
            throw SchedulingException.noEndpoints(snapshot.isEmpty()
                    ? "no endpoints available: the pool is empty"
                    : request.targetModel() == null ? "no endpoints available"
                    : "no endpoints available for model " + request.targetModel());
        }
        return candidates;
    }

    /**
     * Only the endpoint that stored the response a request continues can answer it: that endpoint when it is a
     * candidate, else null (no pin). A dry run neither counts nor refreshes anything.
     */
    private EndpointState pin(List<EndpointState> candidates, InferenceRequest request, boolean dryRun) {
        String previous = request.fields().previousResponseId();
        if (previous == null) {
            return null;
        }
        String name = dryRun ? responses.peek(previous) : responses.endpointOf(previous);
        if (name == null) {
            return null;
        }
        for (EndpointState e : candidates) {
            if (e.name().equals(name)) {
                if (!dryRun) {
                    responses.countPinned(true);
                }
                return e;
            }
        }
        if (!dryRun) {
            responses.countPinned(false);
        }
        return null;
    }

    private static List<Lease> credit(Cycle cycle, SchedulingResult result) {
        List<Lease> leases = new ArrayList<>(2);
        leases.add(lease(cycle, result.target(), true));
        EndpointState prefill = result.prefillTarget();
        if (prefill != null) {
            leases.add(lease(cycle, prefill, true));
        }
        return leases;
    }

    /** Credits the tokens the request will add: prompt tokens the endpoint does not already hold, plus output. */
    private static Lease lease(Cycle cycle, EndpointState target, boolean inCycle) {
        InferenceRequest r = cycle.request();
        long prompt = cycle.promptTokens();
        long cached = inCycle ? PrefixMatch.cachedTokens(cycle, target, prompt) : 0;
        int maxTokens = r.fields().maxTokens();
        // llm-d's token estimator: without max_tokens, expect output of 1.5x the prompt; embeddings and other
        // requests that generate nothing (or nothing the router can tell) add their prompt only.
        long output = maxTokens > 0 ? maxTokens : r.fields().api().generates() ? Math.round(prompt * 1.5) : 0;
        return target.load().acquire(prompt - cached, cached, prompt + output);
    }
}
