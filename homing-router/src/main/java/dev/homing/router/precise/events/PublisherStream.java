package dev.homing.router.precise.events;

import dev.homing.protocol.kvevents.DecodedBatch;
import dev.homing.protocol.kvevents.KvEventDecoder;
import dev.homing.protocol.kvevents.KvEventFormatException;
import java.util.Arrays;
import java.util.zip.CRC32C;

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
 *   <li>a batch a replay already delivered is skipped when it also arrives live, and so is a batch that arrives
 *       again, byte for byte;</li>
 *   <li>a batch given up for lost that arrives after all, behind batches that followed it, is skipped (counted as
 *       {@code out_of_order} skipped events): applied now, its stores and removals would undo newer state;</li>
 *   <li>any other sequence at or below the last one seen live means a new publisher, the engine restarted with an
 *       empty cache: the pod's entries are dropped and the new stream is expected from 0. What tells a restart from a
 *       late or repeated batch is the payload: each of the last {@link #WINDOW} batches is remembered by a checksum,
 *       and a new publisher's batch of a sequence number seen before differs from the old one's (its timestamp, at
 *       least);</li>
 *   <li>the connection to the publisher dropped ({@link #connectionLost}, when the subscriber dials the pod): the
 *       engine may have restarted, and its new stream may already be past the old one's sequence numbers, so nothing
 *       would tell; the pod's entries are dropped and the next message starts the stream as the first one did.</li>
 * </ul>
 * Not thread-safe: one subscriber thread owns it, with the sockets it uses.
 */
final class PublisherStream {

    /** How many recent sequence numbers are remembered, to tell a late or repeated batch from a restart. */
    static final int WINDOW = 256;
    /** {@code homing_kv_events_skipped_total}'s reason for the events of a batch that came after newer ones. */
    static final String OUT_OF_ORDER = "out_of_order";

    private static final long UNKNOWN = -1;
    private static final long GIVEN_UP = -1; // a slot's checksum when its batch was lost (CRC32C is 0..2^32-1)

    private final String pod;
    private final Replayer replayer;
    private final EventSink sink;
    private final KvEventsObserver observer;
    private final long[] slotSeq = new long[WINDOW]; // the sequence number each slot remembers, or UNKNOWN
    private final long[] slotSum = new long[WINDOW]; // its payload's checksum, or GIVEN_UP
    private final CRC32C crc = new CRC32C();
    private long expected = UNKNOWN;
    private long lastLive = UNKNOWN;
    private boolean cleared; // nothing applied since the last clear: another would change nothing

    /** @param replayer the pod's replay socket, or null when it has none */
    PublisherStream(String pod, Replayer replayer, EventSink sink, KvEventsObserver observer) {
        this.pod = pod;
        this.replayer = replayer;
        this.sink = sink;
        this.observer = observer;
        Arrays.fill(slotSeq, UNKNOWN);
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
        if (expected != UNKNOWN && seq < expected) {
            if (seq > lastLive) {
                lastLive = seq;
                return; // a replay delivered it ahead of the live stream
            }
            long sum = remembered(seq);
            if (sum == checksum(payload)) {
                return; // the same batch again
            }
            if (sum == GIVEN_UP) {
                observer.eventsSkipped(OUT_OF_ORDER, events(payload));
                return;
            }
            observer.restart(pod);
            restart();
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

    /**
     * The connection the batches came over dropped: the publisher may be a new one when it comes back. Whatever this
     * stream applied is dropped (counted as a restart), and the next message is taken as a first one. Nothing to do
     * when nothing was taken since the last start (a connection that failed before any batch came over it).
     */
    void connectionLost() {
        if (expected == UNKNOWN) {
            return;
        }
        observer.restart(pod);
        restart();
    }

    private void restart() {
        clear();
        Arrays.fill(slotSeq, UNKNOWN);
        expected = UNKNOWN;
        lastLive = UNKNOWN;
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
                for (long s = Math.max(expected, seq - WINDOW); s < seq; s++) {
                    remember(s, GIVEN_UP);
                }
                clear();
            }
        }
        expected = seq + 1;
        remember(seq, checksum(payload));
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

    private void remember(long seq, long sum) {
        int slot = (int) Math.floorMod(seq, (long) WINDOW);
        slotSeq[slot] = seq;
        slotSum[slot] = sum;
    }

    /** The checksum remembered for {@code seq}, {@link #GIVEN_UP}, or {@code Long.MIN_VALUE} when not remembered. */
    private long remembered(long seq) {
        int slot = (int) Math.floorMod(seq, (long) WINDOW);
        return slotSeq[slot] == seq ? slotSum[slot] : Long.MIN_VALUE;
    }

    private long checksum(byte[] payload) {
        crc.reset();
        crc.update(payload);
        return crc.getValue();
    }

    /** How many events a batch carries, for the count of those skipped (0 when it does not decode). */
    private static int events(byte[] payload) {
        try {
            return KvEventDecoder.decode(payload).batch().events().size();
        } catch (KvEventFormatException | RuntimeException e) {
            return 0;
        }
    }

    private void clear() {
        if (!cleared) {
            sink.clear(pod);
            cleared = true;
        }
    }
}
