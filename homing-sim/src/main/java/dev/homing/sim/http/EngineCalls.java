package dev.homing.sim.http;

import dev.homing.sim.engine.RealTimeEngineDriver;
import dev.homing.sim.engine.RequestHandle;
import dev.homing.sim.engine.RequestObserver;
import dev.homing.sim.engine.SimRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine requests that answer one HTTP request (a choice each, or an input each): submitted at one time, and
 * aborted together when the exchange ends before the answer was given whole, whatever ended it (a client gone, a
 * failed write, the engine refusing one of them, the pod closing), which frees their seats and KV blocks. Used in
 * try-with-resources by one handler thread.
 */
final class EngineCalls implements AutoCloseable {

    private final RealTimeEngineDriver driver;
    private final long submittedNanos;
    private final List<RequestHandle> handles = new ArrayList<>(1);
    private boolean finished;

    EngineCalls(RealTimeEngineDriver driver) {
        this.driver = driver;
        this.submittedNanos = driver.nanoTime();
    }

    /** When they were submitted, on the engine's clock: where their observers' latencies start. */
    long submittedNanos() {
        return submittedNanos;
    }

    /** @throws IllegalArgumentException when the engine refuses it; those submitted before are aborted at close */
    void submit(SimRequest request, RequestObserver observer) {
        handles.add(driver.submit(request, submittedNanos, observer));
    }

    /** The answer was given whole: nothing is aborted. */
    void finished() {
        finished = true;
    }

    /** Aborts every request unless finished; calling it again does nothing. */
    @Override
    public void close() {
        if (!finished) {
            handles.forEach(driver::abort);
        }
        handles.clear();
    }
}
