package dev.homing.core.flowcontrol;

import dev.homing.core.framework.flowcontrol.QueuedRequest;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.time.Ticker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.DoubleSupplier;

/**
 * llm-d's flow control: requests wait in per-priority-band queues instead of going to a saturated pool, and leave
 * them in strict priority order while the pool has headroom.
 *
 * <p>A request of priority p joins band p (a configured band, or one made from the default template and dropped once
 * empty), and within it the flow of its fairness id. A dispatch cycle visits bands from the highest priority down,
 * skipping empty ones; at the first non-empty band whose usage ceiling the pool's saturation has reached the cycle
 * stops, holding every lower band back too (llm-d's head-of-line blocking: a lower band never passes a waiting higher
 * one); otherwise the band's fairness policy picks a flow, its ordering policy that flow's next request, and that
 * request is admitted. The host places an admitted request at once (see {@link Waiter#admitted}), so the next cycle
 * reads a saturation that counts it.
 *
 * <p>A request is refused at enqueue when it would take the queues past a byte or request limit, global or its
 * band's (429 {@code rejected-saturated}); one that waits past its TTL leaves with 503 {@code rejected-ttl-expired}; one
 * whose client leaves, with 503 {@code rejected-context-cancelled} (llm-d's {@code requestcontrol/admission.go}). When
 * the queues are empty and the pool has headroom a request is admitted at enqueue without waiting: flow control costs
 * nothing until the pool is saturated.
 *
 * <p>No thread of its own and no clock but the injected ticker: the router runs cycles on a dispatcher thread, the
 * benchmark's virtual-time runner runs them between events. One lock guards everything; callbacks run outside it.
 * Bounded: by the byte limits (a band's default is 1 GB), and by the request limits when set.
 */
public final class FlowController {

    /** llm-d's QueueOutcome names, the {@code outcome} label of its queue-duration histogram. */
    public static final String DISPATCHED = "Dispatched";
    public static final String REJECTED_CAPACITY = "RejectedCapacity";
    public static final String EVICTED_TTL = "EvictedTTL";
    public static final String EVICTED_CONTEXT_CANCELLED = "EvictedContextCancelled";
    public static final String REJECTED_OTHER = "RejectedOther";

    private final Ticker ticker;
    private final FlowListener listener;
    private final ReentrantLock lock = new ReentrantLock();
    /** Bands by priority, highest first. */
    private final TreeMap<Integer, Band> bands = new TreeMap<>(Comparator.reverseOrder());
    private final Deadlines deadlines = new Deadlines();
    private final Evictions evictions = new Evictions();
    private FlowControlSettings settings;
    private Runnable wake = () -> { };
    private long sequence;
    private int count;
    private long bytes;
    private boolean closed;

    public FlowController(FlowControlSettings settings, Ticker ticker, FlowListener listener) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** Called (outside the lock) whenever a request starts waiting: the host's dispatcher wakes up. */
    public void onEnqueue(Runnable wake) {
        this.wake = Objects.requireNonNull(wake, "wake");
    }

    public FlowControlSettings settings() {
        lock.lock();
        try {
            return settings;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes a reloaded configuration: requests already waiting stay, each band taking its new limits and policies
     * (a band's flows are re-sorted by its new ordering policy; its fairness turn starts afresh if the policy
     * changed). Limits apply to requests enqueued from now on.
     */
    public void reconfigure(FlowControlSettings next) {
        Objects.requireNonNull(next, "settings");
        lock.lock();
        try {
            boolean ttlChanged = next.defaultTtlNanos() != settings.defaultTtlNanos();
            settings = next;
            for (Band b : bands.values()) {
                b.configure(next.band(b.priority), next.bands().containsKey(b.priority));
            }
            if (ttlChanged) {
                deadlines.resort();
            }
            if (!next.eviction()) {
                evictions.clear();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Puts a request in its band's queue, or admits it at once when nothing waits and the pool has headroom for its
     * priority, or refuses it when the queues are full. The ticket says which; a waiting request's {@code waiter} hears
     * of it later.
     *
     * @param byteSize   the request's size (its body), counted against the byte limits
     * @param saturation the pool's saturation now
     */
    public Ticket enqueue(InferenceRequest request, long byteSize, Waiter waiter, double saturation) {
        Objects.requireNonNull(waiter, "waiter");
        long now = ticker.nanos();
        Item item;
        SchedulingException refusal = null;
        String outcome = null;
        lock.lock();
        try {
            item = new Item(request, Math.max(0, byteSize), now, settings.defaultTtlNanos(), sequence++, waiter);
            int priority = request.priority();
            BandSettings band = settings.band(priority);
            if (closed) {
                item.state = Item.State.ENDED;
                refusal = new SchedulingException(503, "flow controller shutting down: the router is draining",
                        "rejected-shutting-down");
                outcome = REJECTED_OTHER;
            } else if (count == 0 && saturation < settings.usageLimit().ceiling(saturation, priority)) {
                item.state = Item.State.ADMITTED;
                item.dispatchedNanos = now;
                track(item);
                outcome = DISPATCHED;
            } else if (full(band, priority, item.bytes)) {
                item.state = Item.State.ENDED;
                refusal = SchedulingException.saturated("request rejected by flow control: the queues for priority "
                        + priority + " are full");
                outcome = REJECTED_CAPACITY;
            } else {
                bands.computeIfAbsent(priority, p -> new Band(p, band, settings.bands().containsKey(p))).add(item);
                count++;
                bytes += item.bytes;
                deadlines.add(item, count);
            }
        } finally {
            lock.unlock();
        }
        if (outcome != null) {
            listener.left(item, outcome, 0);
        } else {
            wake.run();
        }
        return new Ticket(this, item, refusal, DISPATCHED.equals(outcome));
    }

    private boolean full(BandSettings band, int priority, long size) {
        Band b = bands.get(priority);
        int inBand = b == null ? 0 : b.count;
        long bandBytes = b == null ? 0 : b.bytes;
        FlowControlSettings s = settings;
        return (s.maxRequests() > 0 && count + 1 > s.maxRequests())
                || (s.maxBytes() > 0 && bytes + size > s.maxBytes())
                || (band.maxRequests() > 0 && inBand + 1 > band.maxRequests())
                || bandBytes + size > band.maxBytes();
    }

    /**
     * Runs dispatch cycles until one admits nothing: requests past their TTL leave first, then one request is admitted
     * per cycle while the pool has headroom for its band, {@code saturation} read afresh each cycle. Evicts dispatched
     * requests when eviction is on and a band of more important requests is held back. Callbacks run on this thread.
     *
     * @return how many requests were admitted
     */
    public int dispatch(DoubleSupplier saturation) {
        expire();
        int admitted = 0;
        while (true) {
            long t0 = ticker.nanos();
            Item item = null;
            List<Item> victims = List.of();
            lock.lock();
            try {
                if (count == 0) {
                    break;
                }
                double sat = saturation.getAsDouble();
                for (Band band : bands.values()) {
                    if (band.count == 0) {
                        continue;
                    }
                    if (sat >= settings.usageLimit().ceiling(sat, band.priority)) {
                        victims = evictions.choose(band.priority, settings);
                        break; // head-of-line blocking: no lower band passes this one
                    }
                    item = band.poll();
                    break;
                }
                if (item != null) {
                    item.state = Item.State.ADMITTED;
                    item.dispatchedNanos = ticker.nanos();
                    count--;
                    bytes -= item.bytes;
                    track(item);
                    dropIfIdle(bands.get(item.request.priority()));
                }
            } finally {
                lock.unlock();
            }
            for (Item v : victims) {
                v.waiter.evict();
            }
            if (item == null) {
                listener.cycle(ticker.nanos() - t0);
                break;
            }
            listener.left(item, DISPATCHED, item.dispatchedNanos - item.enqueueNanos);
            item.waiter.admitted();
            listener.cycle(ticker.nanos() - t0);
            admitted++;
        }
        return admitted;
    }

    /** Requests whose TTL has passed leave with 503 {@code rejected-ttl-expired}. */
    public int expire() {
        long now = ticker.nanos();
        List<Item> expired = new ArrayList<>();
        lock.lock();
        try {
            expired.addAll(deadlines.due(now));
            for (Item i : expired) {
                remove(i);
            }
        } finally {
            lock.unlock();
        }
        for (Item i : expired) {
            listener.left(i, EVICTED_TTL, now - i.enqueueNanos);
            i.waiter.refused(new SchedulingException(503, "request timed out in queue: waited "
                    + (now - i.enqueueNanos) / 1_000_000 + " ms, past its TTL of " + i.ttlNanos / 1_000_000 + " ms",
                    SchedulingException.TTL_EXPIRED));
        }
        return expired.size();
    }

    /**
     * Refuses everything still waiting (503, the router is shutting down) and every later request: a draining router
     * lets what it dispatched finish and takes nothing new.
     */
    public void close() {
        List<Item> waiting = new ArrayList<>();
        long now = ticker.nanos();
        lock.lock();
        try {
            closed = true;
            waiting.addAll(deadlines.waiting());
            for (Item i : waiting) {
                remove(i);
            }
            deadlines.clear();
        } finally {
            lock.unlock();
        }
        for (Item i : waiting) {
            listener.left(i, REJECTED_OTHER, now - i.enqueueNanos);
            i.waiter.refused(new SchedulingException(503, "flow controller shutting down: the router is draining",
                    "rejected-shutting-down"));
        }
    }

    /** How many requests wait. */
    public int queued() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }

    /** How many bytes wait. */
    public long queuedBytes() {
        lock.lock();
        try {
            return bytes;
        } finally {
            lock.unlock();
        }
    }

    /** Every flow with something waiting, bands from the highest priority down, flows by fairness id. */
    public List<FlowStat> flows() {
        lock.lock();
        try {
            List<FlowStat> out = new ArrayList<>();
            for (Band b : bands.values()) {
                for (Flow f : b.sorted) {
                    out.add(new FlowStat(f.fairnessId, b.priority, f.queue.size(), f.bytes));
                }
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    // ---- under the lock ----

    private void track(Item item) {
        evictions.admitted(item, settings);
    }

    private void remove(Item item) {
        Band band = bands.get(item.request.priority());
        band.remove(item);
        item.state = Item.State.ENDED;
        count--;
        bytes -= item.bytes;
        dropIfIdle(band);
    }

    private void dropIfIdle(Band band) {
        if (band != null && band.count == 0 && !band.configured) {
            bands.remove(band.priority); // a band made from the default template lives while it holds requests
        }
    }

    /** The client of a waiting request left: see {@link Ticket#cancel}. */
    boolean cancel(Item item) {
        long now = ticker.nanos();
        lock.lock();
        try {
            if (item.state != Item.State.QUEUED) {
                return false;
            }
            remove(item);
        } finally {
            lock.unlock();
        }
        listener.left(item, EVICTED_CONTEXT_CANCELLED, now - item.enqueueNanos);
        item.waiter.refused(new SchedulingException(503, "client disconnected: the request left the queue after "
                + (now - item.enqueueNanos) / 1_000_000 + " ms", SchedulingException.CONTEXT_CANCELLED));
        return true;
    }

    /** An admitted request ended: see {@link Ticket#end}. */
    void end(Item item) {
        lock.lock();
        try {
            if (item.state != Item.State.ADMITTED) {
                return;
            }
            item.state = Item.State.ENDED;
            evictions.ended(item);
        } finally {
            lock.unlock();
        }
    }

    boolean evicted(Item item) {
        lock.lock();
        try {
            return item.evicted;
        } finally {
            lock.unlock();
        }
    }

    /** Requests waiting per band, by priority, for tests. */
    Map<Integer, Integer> bandSizes() {
        lock.lock();
        try {
            Map<Integer, Integer> out = new TreeMap<>();
            bands.forEach((p, b) -> out.put(p, b.count));
            return out;
        } finally {
            lock.unlock();
        }
    }
}
