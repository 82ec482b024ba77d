package dev.homing.router.flow;

import dev.homing.core.director.RoutingPolicy;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.flowcontrol.FlowControlSettings;
import dev.homing.core.flowcontrol.FlowController;
import dev.homing.core.flowcontrol.FlowStat;
import dev.homing.core.flowcontrol.Ticket;
import dev.homing.core.flowcontrol.Waiter;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.requestcontrol.SaturationDetector;
import dev.homing.core.time.Ticker;
import dev.homing.router.metrics.FlowMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.concurrent.locks.LockSupport;

/**
 * The router's flow control: the core {@link FlowController} for the running config, and the dispatcher thread that
 * runs its cycles. Both data planes put a request through {@link #enqueue} once it is parsed; the dispatcher admits
 * waiting requests as the pool gains headroom, placing each on its own thread (the {@link Waiter} does), so the next
 * cycle reads a saturation that counts it.
 *
 * <p>The dispatcher sleeps while nothing waits and is woken by an enqueue; while requests wait it runs a cycle every
 * millisecond, as llm-d's processor does: headroom comes back as requests end and scrapes arrive, neither of which
 * signals it. Saturation is the running config's detector over the endpoints that may be sent a request now (pod
 * health's verdict), so an empty or all-down pool is saturated and requests wait for an endpoint (scale from zero)
 * until their TTL.
 */
public final class FlowGate implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(FlowGate.class.getName());
    private static final long CYCLE_NANOS = 1_000_000;

    private final EndpointPool pool;
    private final Predicate<String> routable;
    private final Supplier<RoutingPolicy> policy;
    private final Ticker ticker;
    private final FlowMetrics listener;
    private final Object signal = new Object();
    private volatile FlowController controller;
    private volatile boolean running;
    private boolean woken;
    private Thread dispatcher;

    /**
     * @param routable whether an endpoint may be sent a request now (pod health)
     * @param policy   the running policy, whose saturation detector gates dispatch
     */
    public FlowGate(EndpointPool pool, Predicate<String> routable, Supplier<RoutingPolicy> policy, Ticker ticker,
                    FlowMetrics listener) {
        this.pool = pool;
        this.routable = routable;
        this.policy = policy;
        this.ticker = ticker;
        this.listener = listener;
    }

    /**
     * Takes a (re)loaded config's settings: null turns flow control off, and what waits is admitted at once, as the
     * legacy admission would have taken it.
     */
    public synchronized void configure(FlowControlSettings settings) {
        FlowController c = controller;
        if (settings == null) {
            controller = null;
            if (c != null) {
                c.dispatch(() -> 0.0);
            }
        } else if (c == null) {
            FlowController created = new FlowController(settings, ticker, listener);
            created.onEnqueue(this::wake);
            controller = created;
        } else {
            c.reconfigure(settings);
        }
    }

    /** Whether requests pass flow control now. */
    public boolean active() {
        return controller != null;
    }

    /**
     * Puts a request through flow control. Null when flow control is off (the caller places the request itself);
     * otherwise the ticket says whether it was admitted at once, refused, or waits for {@code waiter} to hear.
     */
    public Ticket enqueue(InferenceRequest request, long bytes, Waiter waiter) {
        FlowController c = controller;
        if (c == null) {
            return null;
        }
        long t0 = ticker.nanos();
        Ticket t = c.enqueue(request, bytes, waiter, saturation());
        String outcome = t.admittedAtOnce() ? FlowController.DISPATCHED : t.refusal() == null ? "Queued"
                : t.refusal().status() == 429 ? FlowController.REJECTED_CAPACITY : FlowController.REJECTED_OTHER;
        listener.enqueued(request.fairnessId(), request.priority(), outcome, ticker.nanos() - t0);
        return t;
    }

    /** The pool's saturation as the running config's detector reads it, over the endpoints that may be used now. */
    public double saturation() {
        SaturationDetector d = policy.get().saturationDetector();
        if (d == null) {
            return 0.0;
        }
        List<EndpointState> usable = new ArrayList<>();
        for (EndpointState e : pool.snapshot().endpoints()) {
            if (routable.test(e.name())) {
                usable.add(e);
            }
        }
        return d.saturation(usable, ticker.nanos());
    }

    /** What waits now, per flow. */
    public List<FlowStat> flows() {
        FlowController c = controller;
        return c == null ? List.of() : c.flows();
    }

    public synchronized void start() {
        running = true;
        dispatcher = Thread.ofPlatform().name("homing-flow-dispatch").daemon().start(this::run);
    }

    private void wake() {
        synchronized (signal) {
            woken = true;
            signal.notifyAll();
        }
    }

    private void run() {
        while (running) {
            FlowController c = controller;
            if (c == null || c.queued() == 0) {
                synchronized (signal) {
                    if (!woken && running) {
                        try {
                            signal.wait(100);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                    woken = false;
                }
                continue;
            }
            try {
                c.dispatch(this::saturation);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "a flow-control dispatch cycle failed", e);
            }
            if (c.queued() > 0) {
                LockSupport.parkNanos(CYCLE_NANOS);
            }
        }
    }

    /** Stops the dispatcher; what still waits is refused (503, the router is shutting down). */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            running = false;
            t = dispatcher;
        }
        wake();
        if (t != null) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        FlowController c = controller;
        if (c != null) {
            c.close();
        }
    }
}
