package dev.homing.router.precise.events;

import dev.homing.core.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Dials one pod's publisher (llm-d's pod-discovery mode) and feeds its batches, in sequence, to the pod's index
 * entries. One thread creates, uses and closes the SUB socket and any replay socket: ZMQ sockets are not thread-safe,
 * and JeroMQ sometimes loses a connection set up on one thread and used on another.
 */
final class PodSubscriber implements AutoCloseable {

    static final int POLL_MILLIS = 100;
    /**
     * JeroMQ 0.6 now and then never completes a ZMTP handshake (about one connection in twenty between two JeroMQ
     * sockets); a deadline makes the dialing side drop the connection and redial instead of staying silent forever.
     */
    static final int HANDSHAKE_MILLIS = 1000;
    static final int RECONNECT_MAX_MILLIS = 5000; // llm-d retries a pod every 5 s
    static final int HIGH_WATER_MARK = 100_000;   // vLLM's publisher default

    private final String pod;
    private final PublisherAddress address;
    private final Thread thread;
    private volatile boolean running = true;

    PodSubscriber(ZContext context, String pod, PublisherAddress address, String topicFilter, EventSink sink,
                  KvEventsObserver observer, Ticker ticker, Duration replayTimeout) {
        this.pod = pod;
        this.address = address;
        this.thread = Thread.ofPlatform().daemon().name("homing-kv-sub-" + pod).unstarted(() -> {
            Replayer replayer = address.replay() == null ? null
                    : new ReplayClient(context, address.replay(), () -> running, ticker, replayTimeout);
            run(context, topicFilter, new PublisherStream(pod, replayer, sink, observer), observer);
        });
    }

    void start() {
        thread.start();
    }

    String pod() {
        return pod;
    }

    PublisherAddress address() {
        return address;
    }

    private void run(ZContext context, String topicFilter, PublisherStream stream, KvEventsObserver observer) {
        ZMQ.Socket sub = context.createSocket(SocketType.SUB);
        try {
            configure(sub, address.events());
            if (!sub.connect(address.events())) {
                throw new IllegalStateException("cannot dial " + address.events());
            }
            sub.subscribe(topicFilter.getBytes(StandardCharsets.UTF_8));
            while (running) {
                KvMessage m = KvMessage.receive(sub);
                if (m == null) {
                    continue;
                }
                if (m.malformed()) {
                    observer.malformed(pod);
                } else {
                    stream.accept(m.seq(), m.payload());
                }
            }
        } catch (RuntimeException e) {
            if (running) {
                System.getLogger(PodSubscriber.class.getName()).log(System.Logger.Level.ERROR,
                        "KV events of " + pod + " at " + address.events() + ": subscriber stopped", e);
            }
        } finally {
            sub.close();
        }
    }

    static void configure(ZMQ.Socket sub, String endpoint) {
        sub.setLinger(0);
        sub.setRcvHWM(HIGH_WATER_MARK);
        sub.setHandshakeIvl(HANDSHAKE_MILLIS);
        sub.setReconnectIVLMax(RECONNECT_MAX_MILLIS);
        sub.setReceiveTimeOut(POLL_MILLIS);
        if (endpoint.contains("[") || endpoint.contains("::")) {
            sub.setIPv6(true);
        }
    }

    /** Asks the thread to stop; {@link #join()} waits for it. */
    void stop() {
        running = false;
    }

    void join() {
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
        join();
    }
}
