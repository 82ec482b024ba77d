package dev.homing.core.plugins.prefix.precise;

import dev.homing.core.precise.PreciseIndex;
import dev.homing.core.time.Ticker;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which pod a picked prompt's blocks belong to before its KV events say so. llm-d holds a pick's blocks for a fixed
 * {@code speculativeTTL} (2 s); but a request can wait in a pod's queue for minutes before its prefill writes a block,
 * and a reuser that arrives meanwhile then finds no owner and goes elsewhere, computing the same prefix twice. With
 * {@code untilPrefilled}, the blocks belong to the pod from the pick until the request's prefill is done (its first
 * token: the pod's events confirm the blocks within the TTL that follows) or it fails (the hold is dropped at once),
 * and never longer than {@code maxAge}. A pod has at most {@code maxBlocksPerPod} such blocks outstanding; a pick
 * beyond that holds only the leading blocks that still fit (a run must start at the first block to be matched).
 * Without {@code untilPrefilled}, every hold lasts the TTL, as llm-d's.
 *
 * <p>Bounded by the pods in the pool (their counters are dropped when they leave) and, per pod, by the cap. The
 * index's own bound still applies to every holding. Thread-safe.
 */
final class SpeculativeOwnership {

    private final PreciseIndex index;
    private final Ticker ticker;
    private final boolean untilPrefilled;
    private final long ttlNanos;
    private final long maxAgeNanos;
    private final long maxBlocksPerPod;
    private final Map<String, AtomicLong> outstanding = new ConcurrentHashMap<>();

    /** One pick's hold, settled exactly once. */
    static final class Hold {
        final String pod;
        final long[] keys;
        private final AtomicBoolean settled = new AtomicBoolean();

        private Hold(String pod, long[] keys) {
            this.pod = pod;
            this.keys = keys;
        }
    }

    SpeculativeOwnership(PreciseIndex index, Ticker ticker, boolean untilPrefilled, long ttlNanos, long maxAgeNanos,
                         long maxBlocksPerPod) {
        this.index = index;
        this.ticker = ticker;
        this.untilPrefilled = untilPrefilled;
        this.ttlNanos = ttlNanos;
        this.maxAgeNanos = maxAgeNanos;
        this.maxBlocksPerPod = maxBlocksPerPod;
    }

    /** The pick's blocks belong to {@code pod} from now; null when nothing needs settling later. */
    Hold hold(String pod, long[] keys) {
        long now = ticker.nanos();
        if (!untilPrefilled) {
            index.holdSpeculatively(pod, keys, now + ttlNanos);
            return null;
        }
        AtomicLong count = outstanding.computeIfAbsent(pod, p -> new AtomicLong());
        long[] held;
        while (true) {
            long before = count.get();
            int room = (int) Math.max(0, Math.min(keys.length, maxBlocksPerPod - before));
            if (room == 0) {
                return null;
            }
            if (count.compareAndSet(before, before + room)) {
                held = room == keys.length ? keys : Arrays.copyOf(keys, room);
                break;
            }
        }
        index.holdSpeculatively(pod, held, now + maxAgeNanos);
        return new Hold(pod, held);
    }

    /** The request's first token arrived: its blocks are written, and the pod's events will confirm them. */
    void prefilled(Hold hold) {
        settle(hold, ticker.nanos() + ttlNanos);
    }

    /** The request ended without its prefill (an error, a cancel): the pod will not hold its blocks. */
    void abandoned(Hold hold) {
        settle(hold, ticker.nanos());
    }

    /** Blocks a pod has on hold, not yet settled. */
    long outstanding(String pod) {
        AtomicLong c = outstanding.get(pod);
        return c == null ? 0 : c.get();
    }

    /** The pod left the pool: its counter goes (its holdings went with it from the index). */
    void forget(String pod) {
        outstanding.remove(pod);
    }

    private void settle(Hold hold, long untilNanos) {
        if (hold == null || !hold.settled.compareAndSet(false, true)) {
            return;
        }
        AtomicLong count = outstanding.get(hold.pod);
        if (count != null) {
            count.addAndGet(-hold.keys.length);
        }
        index.settleSpeculatively(hold.pod, hold.keys, untilNanos);
    }
}
