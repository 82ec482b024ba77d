package dev.homing.sim.virtual;

import dev.homing.sim.engine.Engine;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * A discrete-event loop that runs several {@link Engine}s and scheduled actions in virtual time, always taking the
 * earliest thing next and never sleeping, so a cluster's hour passes in seconds of CPU. The engines are the same ones
 * the HTTP pod runs in real time ({@link dev.homing.sim.engine.RealTimeEngineDriver}).
 *
 * <pre>{@code
 * VirtualTimeLoop loop = new VirtualTimeLoop();
 * Engine a = loop.add(new Engine(Preset.QWEN3_32B_H100_TP2.engine(), KvEventSink.NONE, new SplittableRandom(1)));
 * loop.schedule(2_000_000L, () -> a.submit(request, loop.now(), observer)); // a client at t = 2 ms
 * loop.runUntilIdle();                                                      // observers hear model times
 * }</pre>
 *
 * <p>Order is deterministic: by time; at equal times actions run before engine events (a request submitted at t can
 * join a step starting at t), actions in the order they were scheduled, engines in the order they were added. An
 * action may submit to engines and schedule further actions. Engine observers run inside the loop too; to react to an
 * engine (a closed-loop client sending its next request), they should {@link #schedule} an action rather than call an
 * engine directly.
 *
 * <p>Not thread-safe: one thread runs the whole simulation.
 */
public final class VirtualTimeLoop {

    private record Action(long atNanos, long order, Runnable run) {
    }

    private static final Comparator<Action> ORDER =
            Comparator.comparingLong(Action::atNanos).thenComparingLong(Action::order);

    private final VirtualClock clock;
    private final List<Engine> engines = new ArrayList<>();
    private final PriorityQueue<Action> actions = new PriorityQueue<>(ORDER);
    private long nextOrder;
    private long actionsRun;
    private long engineAdvances;

    /** A loop whose clock starts at 0. */
    public VirtualTimeLoop() {
        this(0);
    }

    public VirtualTimeLoop(long startNanos) {
        this.clock = new VirtualClock(startNanos);
    }

    public VirtualClock clock() {
        return clock;
    }

    /** The current virtual time, in nanoseconds. */
    public long now() {
        return clock.nanos();
    }

    /** Makes {@code engine} part of the simulation; returns it. Its requests must be submitted at {@link #now()}. */
    public Engine add(Engine engine) {
        engines.add(Objects.requireNonNull(engine, "engine"));
        return engine;
    }

    public List<Engine> engines() {
        return List.copyOf(engines);
    }

    /** Runs {@code action} at virtual time {@code atNanos}, which must not be in the past. */
    public void schedule(long atNanos, Runnable action) {
        Objects.requireNonNull(action, "action");
        if (atNanos < clock.nanos()) {
            throw new IllegalArgumentException("cannot schedule at " + atNanos + ", before now (" + clock.nanos()
                    + ")");
        }
        actions.add(new Action(atNanos, nextOrder++, action));
    }

    /** Runs {@code action} {@code delayNanos} from now. */
    public void scheduleAfter(long delayNanos, Runnable action) {
        if (delayNanos < 0) {
            throw new IllegalArgumentException("negative delay " + delayNanos);
        }
        schedule(Math.addExact(clock.nanos(), delayNanos), action);
    }

    /** The time of the next action or engine event; {@link Long#MAX_VALUE} when there is none. */
    public long nextEventNanos() {
        long t = actions.isEmpty() ? Long.MAX_VALUE : actions.peek().atNanos();
        for (Engine e : engines) {
            t = Math.min(t, e.nextEventNanos());
        }
        return t;
    }

    /**
     * Runs the single earliest action, or the earliest engine's events at its next event time. Returns false, doing
     * nothing, when nothing is left.
     */
    public boolean step() {
        long actionAt = actions.isEmpty() ? Long.MAX_VALUE : actions.peek().atNanos();
        Engine earliest = null;
        long engineAt = Long.MAX_VALUE;
        for (Engine e : engines) {
            long t = e.nextEventNanos();
            if (t < engineAt) {
                engineAt = t;
                earliest = e;
            }
        }
        if (actionAt == Long.MAX_VALUE && earliest == null) {
            return false;
        }
        if (actionAt <= engineAt) {
            Action a = actions.poll();
            clock.advanceTo(a.atNanos());
            actionsRun++;
            a.run().run();
        } else {
            clock.advanceTo(engineAt);
            engineAdvances++;
            earliest.advanceTo(engineAt);
        }
        return true;
    }

    /** Runs until nothing is left; returns the virtual time then. */
    public long runUntilIdle() {
        while (step()) {
            // each step moves time forward or runs one action
        }
        return clock.nanos();
    }

    /** Runs everything due at or before {@code nanos}, then sets the clock to {@code nanos}. */
    public void runUntil(long nanos) {
        while (nextEventNanos() <= nanos) {
            step();
        }
        if (nanos > clock.nanos()) {
            clock.advanceTo(nanos);
            for (Engine e : engines) {
                e.advanceTo(nanos);
            }
        }
    }

    /** Actions run so far. */
    public long actionsRun() {
        return actionsRun;
    }

    /** Engine advances so far: each runs one engine's events at one instant (a step ending, a request arriving). */
    public long engineAdvances() {
        return engineAdvances;
    }
}
