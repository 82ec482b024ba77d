package dev.homing.router.precise.events;

import dev.homing.protocol.kvevents.DecodedBatch;
import dev.homing.protocol.kvevents.KvEventDecoder;
import dev.homing.protocol.kvevents.KvEventFormatException;

/**
 * One publisher's batches put back in sequence before they reach its pod's index. vLLM numbers each publisher's
 * batches from 0, and a ZMQ subscriber can lose some (PUB drops until a subscription arrives, and beyond its
 * high-water mark). So:
 * <ul>
 *   <li>the first message sets the expectation; when it is not sequence 0 and the pod has a replay socket, the start
 *       is filled from the replay buffer first (events published before the subscription took hold);</li>
 *   <li>the next sequence is applied; one further ahead is a gap: the missing batches are asked of the replay socket
 *       when there is one, and what still cannot be had is lost, so the pod's entries are dropped and rebuilt from
 *       what follows (an index missing some removals would keep sending requests to blocks that are gone);</li>
 *   <li>a sequence at or below the last one seen live means a new publisher, the engine restarted with an empty
 *       cache: the pod's entries are dropped and the new stream is expected from 0;</li>
 *   <li>a batch a replay already delivered is skipped when it also arrives live.</li>
 * </ul>
 * Not thread-safe: one subscriber thread owns it, with the sockets it uses.
 */
final class PublisherStream {

    private static final long UNKNOWN = -1;

    private final String pod;
    private final Replayer replayer;
    private final EventSink sink;
    private final KvEventsObserver observer;
    private long expected = UNKNOWN;
    private long lastLive = UNKNOWN;
    private boolean cleared; // nothing applied since the last clear: another would change nothing

    /** @param replayer the pod's replay socket, or null when it has none */
    PublisherStream(String pod, Replayer replayer, EventSink sink, KvEventsObserver observer) {
        this.pod = pod;
        this.replayer = replayer;
        this.sink = sink;
        this.observer = observer;
    }

    String pod() {
        return pod;
    }

    /** A message as it arrived on the live socket. */
    void accept(long seq, byte[] payload) {
        if (seq < 0) {
            observer.malformed(pod); // beyond 2^63: no engine counts that far
            return;
        }
        if (lastLive != UNKNOWN && seq <= lastLive) {
            observer.restart(pod);
            clear();
            expected = 0;
        }
        lastLive = seq;
        if (expected == UNKNOWN) {
            if (seq > 0 && replayer != null) {
                replay(0);
            }
        } else if (seq > expected) {
            observer.gap(pod, seq - expected);
            if (replayer != null) {
                replay(expected);
            }
        }
        take(seq, payload);
    }

    private void replay(long from) {
        observer.replay(pod, replayer.replay(from, this::take));
    }

    /** The next batch in order, live or replayed. */
    private void take(long seq, byte[] payload) {
        if (expected != UNKNOWN) {
            if (seq < expected) {
                return;
            }
            if (seq > expected) {
                observer.batchesLost(pod, seq - expected);
                clear();
            }
        }
        expected = seq + 1;
        DecodedBatch decoded;
        try {
            decoded = KvEventDecoder.decode(payload);
        } catch (KvEventFormatException | RuntimeException e) {
            observer.malformed(pod);
            return;
        }
        observer.batchTaken(pod);
        if (decoded.skippedEvents() > 0) {
            observer.eventsSkipped("unknown_type", decoded.skippedEvents());
        }
        if (!decoded.batch().events().isEmpty()) {
            sink.apply(pod, decoded.batch().events());
            cleared = false;
        }
    }

    private void clear() {
        if (!cleared) {
            sink.clear(pod);
            cleared = true;
        }
    }
}
