package dev.homing.router.precise.events;

import dev.homing.core.time.Ticker;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Asks a vLLM replay socket (a ROUTER) for its kept batches over a DEALER: request {@code ["", seq]}, replies
 * {@code ["", seq, payload]} per batch from {@code seq} on, then {@code ["", FF×8, ""]}. A DEALER, because a REQ
 * socket would take only the first reply. Each replay uses a fresh socket, created, used and closed on the calling
 * thread (the subscriber's), so no socket is shared between threads.
 */
final class ReplayClient implements Replayer {

    private static final byte[] EMPTY = new byte[0];
    private static final long END = -1; // FF×8
    private static final int POLL_MILLIS = 100;
    private static final int HANDSHAKE_MILLIS = 1000;
    /** A stalled JeroMQ handshake is redialled after a second; two more chances cover that. */
    private static final int ATTEMPTS = 3;
    /** However steadily a publisher answers, a replay ends: the live stream is waiting behind it. */
    private static final long MAX_REPLAY_NANOS = Duration.ofSeconds(30).toNanos();

    private final ZContext context;
    private final String endpoint;
    private final BooleanSupplier running;
    private final Ticker ticker;
    private final long replyTimeoutNanos;

    /**
     * @param replyTimeout longest wait for the first reply, and between two replies; the replay is abandoned after it
     */
    ReplayClient(ZContext context, String endpoint, BooleanSupplier running, Ticker ticker, Duration replyTimeout) {
        this.context = context;
        this.endpoint = endpoint;
        this.running = running;
        this.ticker = ticker;
        this.replyTimeoutNanos = replyTimeout.toNanos();
    }

    @Override
    public boolean replay(long from, Batches batches) {
        for (int attempt = 0; attempt < ATTEMPTS && running.getAsBoolean(); attempt++) {
            int outcome = once(from, batches);
            if (outcome > 0) {
                return true;
            }
            if (outcome < 0) {
                return false; // answers began and then stopped: the caller deals with what is missing
            }
        }
        return false;
    }

    /** 1: complete; 0: no answer at all (worth another try); -1: answers stopped before the end marker. */
    private int once(long from, Batches batches) {
        ZMQ.Socket dealer = context.createSocket(SocketType.DEALER);
        try {
            dealer.setLinger(0);
            dealer.setHandshakeIvl(HANDSHAKE_MILLIS);
            dealer.setReceiveTimeOut(POLL_MILLIS);
            dealer.setRcvHWM(0); // a replay of buffer_steps batches must not be cut at the default 1000
            if (endpoint.contains("[") || endpoint.contains("::")) {
                dealer.setIPv6(true);
            }
            if (!dealer.connect(endpoint)) {
                return 0;
            }
            dealer.sendMore(EMPTY);
            dealer.send(KvMessage.sequenceBytes(from), 0);
            long start = ticker.nanos();
            long deadline = start + replyTimeoutNanos;
            boolean answered = false;
            while (running.getAsBoolean() && ticker.nanos() - deadline < 0 && ticker.nanos() - start < MAX_REPLAY_NANOS) {
                byte[] delimiter = dealer.recv(0);
                if (delimiter == null) {
                    continue;
                }
                byte[] seq = dealer.hasReceiveMore() ? dealer.recv(0) : null;
                byte[] payload = dealer.hasReceiveMore() ? dealer.recv(0) : null;
                while (dealer.hasReceiveMore()) {
                    dealer.recv(0);
                }
                answered = true;
                deadline = ticker.nanos() + replyTimeoutNanos;
                if (seq == null || seq.length < 8 || payload == null) {
                    continue; // not a reply; the next one may be
                }
                long s = KvMessage.sequence(seq);
                if (s == END) {
                    return 1;
                }
                batches.take(s, payload);
            }
            return answered ? -1 : 0;
        } finally {
            dealer.close();
        }
    }
}
