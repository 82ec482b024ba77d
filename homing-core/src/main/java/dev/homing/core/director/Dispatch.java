package dev.homing.core.director;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.endpoint.Lease;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.core.framework.requestcontrol.ResponseHooks;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RoutingFields;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A request that has been placed: where it goes, the load it holds, and the hooks to tell as its response passes.
 * Use it in try-with-resources: {@link #close()} releases the load and runs the completion hooks exactly once, on
 * every path. Call {@link #complete(Outcome)} first to say how it ended; a dispatch closed without one ended in error.
 */
public final class Dispatch implements AutoCloseable {

    private final Cycle cycle;
    private final SchedulingResult result;
    private final List<Lease> leases;
    private final List<ResponseHooks> hooks;
    private final ResponseAffinity responses;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Outcome outcome;

    Dispatch(Cycle cycle, SchedulingResult result, List<Lease> leases, List<ResponseHooks> hooks,
             ResponseAffinity responses) {
        this.cycle = cycle;
        this.result = result;
        this.leases = List.copyOf(leases);
        this.hooks = hooks;
        this.responses = responses;
    }

    public Cycle cycle() {
        return cycle;
    }

    public SchedulingResult result() {
        return result;
    }

    /** Where the request goes. */
    public EndpointState target() {
        return result.target();
    }

    /** The target first, then fallbacks. */
    public List<EndpointState> targets() {
        return result.primary().targets();
    }

    public void onHeaders(int status, Map<String, String> extraHeaders) {
        for (ResponseHooks h : hooks) {
            h.onHeaders(cycle, result, status, extraHeaders);
        }
    }

    public void onBodyChunk(byte[] chunk, int offset, int length) {
        for (ResponseHooks h : hooks) {
            h.onBodyChunk(cycle, result, chunk, offset, length);
        }
    }

    /**
     * The first bytes of a successful response arrived: the target has prefilled the prompt. Call once the
     * response starts; calling again, or never (closing implies it), is harmless.
     */
    public void firstToken() {
        for (Lease l : leases) {
            l.prefillDone();
        }
    }

    /**
     * The target answered this Responses API request with response {@code responseId} (the {@code id} of its JSON
     * body, or of its {@code response.created} or {@code response.completed} event when streamed): a later request
     * naming it as {@code previous_response_id} goes to the same target while it is a candidate. Ignored for other
     * APIs, for a request that asked not to be stored, and for null.
     */
    public void answered(String responseId) {
        RoutingFields f = cycle.request().fields();
        if (responseId != null && f.api() == ApiKind.RESPONSES && f.store()) {
            responses.remember(responseId, result.target().name());
        }
    }

    /** Records how the request ended; the first call wins. */
    public void complete(Outcome how) {
        if (outcome == null) {
            outcome = how;
        }
    }

    public boolean isClosed() {
        return closed.get();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            Outcome how = outcome != null ? outcome : Outcome.of(Outcome.Cause.ERROR, 0);
            for (ResponseHooks h : hooks) {
                h.onComplete(cycle, result, how);
            }
        } finally {
            for (Lease l : leases) {
                l.close();
            }
        }
    }
}
