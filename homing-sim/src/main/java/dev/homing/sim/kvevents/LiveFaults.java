package dev.homing.sim.kvevents;

/**
 * What the wire does to a publisher's live stream, for fault tests: each batch, by its sequence number, is sent, lost
 * or held back and sent after the next one. Only the live PUB socket is affected: every batch is kept for replay in
 * sequence, as vLLM keeps a batch its PUB socket drops (a high-water mark, a subscription that arrives late). Asked on
 * the publisher thread, once per batch, in sequence order.
 */
@FunctionalInterface
public interface LiveFaults {

    /** What happens to one live batch. */
    enum Fate {
        SEND,
        /** Never sent live; still replayable. */
        DROP,
        /** Sent after the next batch that is sent (or once the publisher is idle), so it arrives out of order. */
        HOLD
    }

    Fate fate(long seq);

    /** The wire loses and reorders nothing. */
    LiveFaults NONE = seq -> Fate.SEND;

    /** The first {@code n} batches are lost, as a PUB socket drops what it sends before a subscriber has connected. */
    static LiveFaults dropFirst(long n) {
        return seq -> seq < n ? Fate.DROP : Fate.SEND;
    }

    /** Batch {@code seq} with {@code seq % every == phase} is lost, as beyond a high-water mark. */
    static LiveFaults dropEvery(int every, int phase) {
        check(every, phase);
        return seq -> seq % every == phase ? Fate.DROP : Fate.SEND;
    }

    /** Batch {@code seq} with {@code seq % every == phase} arrives after the batch that follows it. */
    static LiveFaults holdEvery(int every, int phase) {
        check(every, phase);
        return seq -> seq % every == phase ? Fate.HOLD : Fate.SEND;
    }

    /** This fault where it applies, else {@code other}'s. */
    default LiveFaults or(LiveFaults other) {
        return seq -> {
            Fate f = fate(seq);
            return f == Fate.SEND ? other.fate(seq) : f;
        };
    }

    private static void check(int every, int phase) {
        if (every < 2 || phase < 0 || phase >= every) {
            throw new IllegalArgumentException("every must be at least 2 and phase in [0, every), got " + every + ", "
                    + phase);
        }
    }
}
