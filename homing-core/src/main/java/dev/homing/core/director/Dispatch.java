package dev.homing.core.director;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.endpoint.Lease;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.core.framework.requestcontrol.ResponseHooks;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RoutingFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A request that has been placed: where it goes, the load it holds, and the hooks to tell as its response passes.
 * Use it in try-with-resources, or close it on every path that ends the request: {@link #close()} releases the load
 * and runs the completion hooks exactly once. Call {@link #complete(Outcome)} first to say how it ended; a dispatch
 * closed without one ended in error.
 */
public final class Dispatch implements AutoCloseable {

    private final Director director;
    private final RoutingPolicy policy;
    private final Cycle cycle;
    private final List<ResponseHooks> hooks;
    private final ResponseAffinity responses;
    /** The target's lease first, then the prefill endpoint's (disaggregated serving); guarded by this. */
    private final List<Lease> leases;
    private volatile SchedulingResult result;
    private boolean closed; // guarded by this
    private boolean prefilled; // guarded by this: the first token arrived, no lease of this request awaits a prefill
    private volatile Outcome outcome;

    Dispatch(Director director, RoutingPolicy policy, Cycle cycle, SchedulingResult result, List<Lease> leases,
             ResponseAffinity responses) {
        this.director = director;
        this.policy = policy;
        this.cycle = cycle;
        this.result = result;
        this.leases = new ArrayList<>(leases);
        this.hooks = policy.responseHooks();
        this.responses = responses;
    }

    public Cycle cycle() {
        return cycle;
    }

    /** The decision, with the endpoint that served the request first if the gateway said it was another. */
    public SchedulingResult result() {
        return result;
    }

    /** Where the request goes (or went, once the gateway said so). */
    public EndpointState target() {
        return result.target();
    }

    /** The target first, then fallbacks. */
    public List<EndpointState> targets() {
        return result.primary().targets();
    }

    public void onHeaders(int status, Map<String, String> extraHeaders) {
        SchedulingResult r = result;
        for (ResponseHooks h : hooks) {
            h.onHeaders(cycle, r, status, extraHeaders);
        }
    }

    public void onBodyChunk(byte[] chunk, int offset, int length) {
        SchedulingResult r = result;
        for (ResponseHooks h : hooks) {
            h.onBodyChunk(cycle, r, chunk, offset, length);
        }
    }

    /**
     * The first bytes of a successful response arrived: the target has prefilled the prompt. Call once the
     * response starts; calling again, or never (closing implies it), is harmless.
     */
    public void firstToken() {
        boolean first;
        synchronized (this) {
            first = !prefilled && !closed;
            prefilled = true;
        }
        for (Lease l : leasesNow()) {
            l.prefillDone();
        }
        if (first) {
            SchedulingResult r = result;
            for (ResponseHooks h : hooks) {
                h.onFirstToken(cycle, r);
            }
        }
    }

    /**
     * The gateway reports that {@code served} served the request, not the picked target (it went down the fallback
     * list, or the gateway chose for itself): the load credited at the pick moves there, and so does what the pick
     * recorded (prefix ownership, the newcomer spreader's mark), under the decision lock. Does nothing when
     * {@code served} is the target already or the request has ended.
     */
    public void servedBy(EndpointState served) {
        director.reroute(this, policy, served);
    }

    /**
     * Swaps the target's lease for {@code fresh} on {@code served}; false (and {@code fresh} released) when the
     * dispatch has closed meanwhile.
     */
    boolean moveTo(EndpointState served, Lease fresh) {
        Lease old;
        synchronized (this) {
            if (closed) {
                fresh.close();
                return false;
            }
            old = leases.set(0, fresh);
            result = result.servedBy(served);
            if (prefilled) { // told after the response began: the endpoint that served has prefilled already
                fresh.prefillDone();
            }
        }
        old.close();
        return true;
    }

    /**
     * The target answered this Responses API request with response {@code responseId} (the {@code id} of its JSON
     * body, or of its {@code response.created} or {@code response.completed} event when streamed): a later request
     * naming it as {@code previous_response_id} goes to the same target while it is a candidate. Ignored for other
     * APIs, for a request that asked not to be stored ({@code store: false}), for null, and once the target has left
     * the pool. Call it as soon as the id has passed, before the client has the bytes that carry it, so that a
     * follow-up sent the instant the client reads them finds the pod.
     */
    public void answered(String responseId) {
        RoutingFields f = cycle.request().fields();
        if (responseId != null && f.api() == ApiKind.RESPONSES && f.store()) {
            responses.remember(responseId, result.target().name(), director::inPool);
        }
    }

    /** Records how the request ended; the first call wins. */
    public void complete(Outcome how) {
        if (outcome == null) {
            outcome = how;
        }
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    private synchronized List<Lease> leasesNow() {
        return List.copyOf(leases);
    }

    @Override
    public void close() {
        List<Lease> held;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            held = List.copyOf(leases);
        }
        try {
            Outcome how = outcome != null ? outcome : Outcome.of(Outcome.Cause.ERROR, 0);
            SchedulingResult r = result;
            for (ResponseHooks h : hooks) {
                h.onComplete(cycle, r, how);
            }
        } finally {
            for (Lease l : held) {
                l.close();
            }
        }
    }
}
