package dev.homing.core.director;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.endpoint.Lease;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.core.framework.requestcontrol.ResponseHooks;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.SchedulingResult;
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
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Outcome outcome;

    Dispatch(Cycle cycle, SchedulingResult result, List<Lease> leases, List<ResponseHooks> hooks) {
        this.cycle = cycle;
        this.result = result;
        this.leases = List.copyOf(leases);
        this.hooks = hooks;
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
