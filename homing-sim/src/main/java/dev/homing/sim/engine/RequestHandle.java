package dev.homing.sim.engine;

/** A submitted request, for {@link Engine#abort}. */
public final class RequestHandle {

    final EngineRequest state;

    RequestHandle(EngineRequest state) {
        this.state = state;
    }

    public String requestId() {
        return state.request.requestId();
    }

    /** Model time at which the engine took the request (its submit time, never earlier than the engine's clock). */
    public long arrivalNanos() {
        return state.arrivalNanos;
    }

    @Override
    public String toString() {
        return "RequestHandle[" + requestId() + "]";
    }
}
