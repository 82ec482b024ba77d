package dev.homing.router.precise.events;

import dev.homing.core.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZEvent;
import org.zeromq.ZMonitor;
import org.zeromq.ZMQ;

/**
 * Dials one pod's publisher (llm-d's pod-discovery mode) and feeds its batches, in sequence, to the pod's index
 * entries; a monitor on the SUB socket says when the connection to the publisher ends, which drops what the pod's
 * entries were built from ({@link PublisherStream#connectionLost}). One thread creates, uses and closes the SUB
 * socket, its monitor and any replay socket: ZMQ sockets are not thread-safe, and JeroMQ sometimes loses a connection
 * set up on one thread and used on another.
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
    /** The first redial after a connection ends (JeroMQ's default), well after its last messages are in. */
    static final int RECONNECT_MILLIS = 100;
    /** After a disconnection, how long the socket must stay quiet before the old connection's tail is all in. */
    static final int TAIL_MILLIS = 10;
    private static final AtomicLong MONITORS = new AtomicLong();

    private final String pod;
    private final PublisherAddress address;
    private final Ticker ticker;
    private final Thread thread;
    private volatile boolean running = true;

    PodSubscriber(ZContext context, String pod, PublisherAddress address, String topicFilter, EventSink sink,
                  KvEventsObserver observer, Ticker ticker, Duration replayTimeout) {
        this.pod = pod;
        this.address = address;
        this.ticker = ticker;
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
        ZMQ.Socket monitor = null;
        ZMQ.Poller poller = null;
        ZMQ.Poller tail = null;
        try {
            configure(sub, address.events());
            sub.setReconnectIVL(RECONNECT_MILLIS);
            // The connection's end is the one sign of a restarted publisher whose new stream is already past the old
            // one's sequence numbers (it published while this socket was redialling): watch for it.
            String monitorAt = "inproc://homing-kv-monitor-" + MONITORS.incrementAndGet();
            if (!sub.monitor(monitorAt, ZMQ.EVENT_DISCONNECTED)) {
                throw new IllegalStateException("cannot monitor the connection to " + address.events());
            }
            monitor = context.createSocket(SocketType.PAIR);
            monitor.connect(monitorAt);
            if (!sub.connect(address.events())) {
                throw new IllegalStateException("cannot dial " + address.events());
            }
            sub.subscribe(topicFilter.getBytes(StandardCharsets.UTF_8));
            poller = context.createPoller(2);
            poller.register(sub, ZMQ.Poller.POLLIN);
            poller.register(monitor, ZMQ.Poller.POLLIN);
            tail = context.createPoller(1);
            tail.register(sub, ZMQ.Poller.POLLIN);
            while (running) {
                // Before each message: once the disconnection is known, what comes next may be a new publisher's.
                if (disconnected(monitor)) {
                    // The old connection's last messages reach the socket just after the event: take them first,
                    // for less than RECONNECT_MILLIS, before which a new connection's cannot come.
                    long until = ticker.nanos() + TimeUnit.MILLISECONDS.toNanos(RECONNECT_MILLIS / 2);
                    while (running && ticker.nanos() - until < 0 && tail.poll(TAIL_MILLIS) > 0) {
                        for (KvMessage m = KvMessage.receive(sub, ZMQ.DONTWAIT); m != null;
                                m = KvMessage.receive(sub, ZMQ.DONTWAIT)) {
                            take(m, stream, observer);
                        }
                    }
                    stream.connectionLost();
                    continue;
                }
                KvMessage m = KvMessage.receive(sub, ZMQ.DONTWAIT);
                if (m == null) {
                    poller.poll(POLL_MILLIS);
                    continue;
                }
                take(m, stream, observer);
            }
        } catch (RuntimeException e) {
            if (running) {
                System.getLogger(PodSubscriber.class.getName()).log(System.Logger.Level.ERROR,
                        "KV events of " + pod + " at " + address.events() + ": subscriber stopped", e);
            }
        } finally {
            if (poller != null) {
                poller.close();
            }
            if (tail != null) {
                tail.close();
            }
            sub.close();
            if (monitor != null) {
                monitor.close();
            }
        }
    }

    private void take(KvMessage m, PublisherStream stream, KvEventsObserver observer) {
        if (m.malformed()) {
            observer.malformed(pod);
        } else {
            stream.accept(m.seq(), m.payload());
        }
    }

    /** Whether the monitor reported the connection's end since it was last asked (every waiting event is read). */
    private static boolean disconnected(ZMQ.Socket monitor) {
        boolean lost = false;
        for (ZEvent e = ZEvent.recv(monitor, ZMQ.DONTWAIT); e != null; e = ZEvent.recv(monitor, ZMQ.DONTWAIT)) {
            lost |= e.getEvent() == ZMonitor.Event.DISCONNECTED;
        }
        return lost;
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
