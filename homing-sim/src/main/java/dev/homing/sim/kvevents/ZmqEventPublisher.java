package dev.homing.sim.kvevents;

import dev.homing.protocol.kvevents.KvEventBatch;
import dev.homing.protocol.kvevents.KvEventEncoder;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMQException;

/**
 * vLLM's {@code ZmqEventPublisher} ({@code vllm/distributed/kv_events.py}): one thread owns a PUB socket and, when a
 * replay endpoint is set, a ROUTER socket. Batches arrive through a bounded queue ({@code max_queue_size}); each is
 * encoded and sent as exactly three frames, {@code [topic, seq as 8 bytes big-endian, msgpack payload]}, then kept
 * for replay ({@code buffer_steps}). A replay request {@code [client, "", start seq as 8 bytes]} on the ROUTER is
 * answered with {@code [client, "", seq, payload]} per kept batch from {@code start} on, then the end marker
 * {@code [client, "", FF×8, ""]}. On close the queue gets up to one second to drain; sockets close with linger 0.
 * For fault tests, {@link #faults} can make the live stream lose batches or deliver one out of order
 * ({@link LiveFaults}); the replay buffer keeps every batch in sequence whatever the live stream did.
 */
public final class ZmqEventPublisher implements BatchHandoff, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ZmqEventPublisher.class.getName());
    static final byte[] END_SEQ = {-1, -1, -1, -1, -1, -1, -1, -1};
    private static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long IDLE_POLL_MILLIS = 100;
    private static final long REPLAY_POLL_MILLIS = 5;
    private static final int HANDSHAKE_MILLIS = 1000;
    /** Longest a batch the faults hold back waits for a later one to overtake it. */
    private static final long HOLD_NANOS = TimeUnit.SECONDS.toNanos(1);

    private record Sequenced(long seq, KvEventBatch batch) {
    }

    /** The endpoints as the sockets ended up, or why they could not be set up. */
    private record Attached(String endpoint, String replayEndpoint) {
    }

    private static final long READY_TIMEOUT_SECONDS = 10;

    private final KvEventsConfig config;
    private final ZContext context;
    private final byte[] topic;
    private final ArrayBlockingQueue<Sequenced> queue;
    private final ReplayBuffer buffer;
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong replays = new AtomicLong();
    private final AtomicLong liveDropped = new AtomicLong();
    private final AtomicLong liveReordered = new AtomicLong();
    private final CompletableFuture<Attached> ready = new CompletableFuture<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean paused;
    private volatile long closeRequestedNanos;
    private volatile Attached attached;
    private volatile LiveFaults faults = LiveFaults.NONE;
    private volatile boolean bindAnyway;

    private ZmqEventPublisher(KvEventsConfig config, String threadName, boolean paused) {
        this.config = config;
        this.topic = config.topic().getBytes(StandardCharsets.UTF_8);
        this.queue = new ArrayBlockingQueue<>(config.maxQueueSize());
        this.buffer = new ReplayBuffer(config.bufferSteps());
        this.paused = paused;
        this.context = new ZContext();
        this.thread = Thread.ofPlatform().name(threadName).daemon().unstarted(this::run);
    }

    /**
     * Starts the publisher thread, which binds or connects the sockets; returns once they are, or fails here, loudly,
     * if an endpoint is unusable. The sockets never leave that thread: ZMQ sockets are not thread-safe, and JeroMQ
     * sometimes loses a connection set up on one thread and used on another.
     */
    public static ZmqEventPublisher start(KvEventsConfig config, String threadName) {
        return start(config, threadName, LiveFaults.NONE);
    }

    /** As {@link #start(KvEventsConfig, String)}, with what the wire does to the live stream from the first batch. */
    public static ZmqEventPublisher start(KvEventsConfig config, String threadName, LiveFaults faults) {
        ZmqEventPublisher p = new ZmqEventPublisher(config, threadName, false);
        p.faults = faults;
        return p.awaitReady();
    }

    /**
     * A publisher started again where an earlier one was bound: the PUB socket binds the config's endpoint, a port
     * resolved, although vLLM's rule would connect to an endpoint without {@code *}; otherwise as
     * {@link #start(KvEventsConfig, String, LiveFaults)}.
     */
    public static ZmqEventPublisher restartBound(KvEventsConfig config, String threadName, LiveFaults faults) {
        ZmqEventPublisher p = new ZmqEventPublisher(config, threadName, false);
        p.faults = faults;
        p.bindAnyway = true;
        return p.awaitReady();
    }

    /** Sockets ready, replay served, but batches stay queued until {@link #resume()}. For tests of the queue. */
    static ZmqEventPublisher startPaused(KvEventsConfig config) {
        return new ZmqEventPublisher(config, "homing-kv-events-test", true).awaitReady();
    }

    void resume() {
        paused = false;
    }

    private ZmqEventPublisher awaitReady() {
        thread.start();
        try {
            attached = ready.get(READY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return this;
        } catch (ExecutionException e) {
            close();
            throw e.getCause() instanceof IllegalStateException ise ? ise
                    : new IllegalStateException("KV events: the publisher failed to start", e.getCause());
        } catch (TimeoutException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            close();
            throw new IllegalStateException("KV events: the publisher did not start within "
                    + READY_TIMEOUT_SECONDS + " s", e);
        }
    }

    /** The PUB endpoint as bound or connected; a {@code *} port resolved to the one chosen. */
    public String endpoint() {
        return attached.endpoint();
    }

    /** The ROUTER endpoint as bound, or null without replay. */
    public String replayEndpoint() {
        return attached.replayEndpoint();
    }

    public long publishedBatches() {
        return published.get();
    }

    public long replayRequests() {
        return replays.get();
    }

    /** What the wire does to the live stream from the next batch on. */
    public void faults(LiveFaults f) {
        faults = Objects.requireNonNull(f, "faults");
    }

    /** Batches the live stream lost by {@link #faults} (kept for replay all the same). */
    public long liveDropped() {
        return liveDropped.get();
    }

    /** Batches {@link #faults} held back and sent after a later one. */
    public long liveReordered() {
        return liveReordered.get();
    }

    @Override
    public boolean offer(long seq, KvEventBatch batch) {
        return running && queue.offer(new Sequenced(seq, batch));
    }

    @Override
    public void close() {
        if (!running) {
            return;
        }
        closeRequestedNanos = System.nanoTime();
        running = false;
        paused = false;
        if (thread.isAlive()) {
            try {
                thread.join(TimeUnit.NANOSECONDS.toMillis(DRAIN_NANOS) + 1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        context.close();
    }

    private static String attach(ZMQ.Socket socket, String endpoint, boolean bind) {
        if (ZmqEndpoints.ipv6(endpoint)) {
            socket.setIPv6(true);
        }
        try {
            boolean ok = bind ? socket.bind(endpoint) : socket.connect(endpoint);
            if (!ok) {
                throw new IllegalStateException("KV events: could not " + (bind ? "bind" : "connect to") + " "
                        + endpoint);
            }
        } catch (ZMQException | IllegalArgumentException e) {
            throw new IllegalStateException("KV events: could not " + (bind ? "bind" : "connect to") + " " + endpoint
                    + ": " + e.getMessage(), e);
        }
        String last = socket.getLastEndpoint();
        return bind && last != null ? last : endpoint;
    }

    private void run() {
        ZMQ.Socket pub;
        ZMQ.Socket replay = null;
        try {
            pub = context.createSocket(SocketType.PUB);
            pub.setLinger(0);
            pub.setHWM(config.hwm());
            // JeroMQ now and then stalls a ZMTP handshake (seen between two JeroMQ sockets in one JVM); a handshake
            // deadline makes the connecting side drop and redial instead of waiting forever (libzmq's is 30 s).
            pub.setHandshakeIvl(HANDSHAKE_MILLIS);
            String endpoint = attach(pub, config.endpoint(), bindAnyway || ZmqEndpoints.binds(config.endpoint()));
            String replayEndpoint = null;
            if (config.replayEndpoint() != null) {
                replay = context.createSocket(SocketType.ROUTER);
                replay.setLinger(0);
                replay.setHandshakeIvl(HANDSHAKE_MILLIS);
                replayEndpoint = attach(replay, config.replayEndpoint(), true);
            }
            ready.complete(new Attached(endpoint, replayEndpoint));
        } catch (RuntimeException e) {
            ready.completeExceptionally(e);
            return;
        }
        KvEventEncoder encoder = new KvEventEncoder(config.format());
        Kept held = null; // a batch the faults hold back
        long poll = replay == null ? IDLE_POLL_MILLIS : REPLAY_POLL_MILLIS;
        try {
            while (running || (!queue.isEmpty() && System.nanoTime() - closeRequestedNanos < DRAIN_NANOS)) {
                if (replay != null) {
                    serveReplay(replay);
                }
                if (paused) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(REPLAY_POLL_MILLIS));
                    continue;
                }
                Sequenced next;
                try {
                    next = queue.poll(poll, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    break;
                }
                if (next == null) {
                    if (held != null && System.nanoTime() - held.sinceNanos() > HOLD_NANOS) {
                        held = sendHeld(pub, held); // nothing newer came: the held batch goes out late, not reordered
                    }
                    continue;
                }
                try {
                    byte[] payload = encoder.encode(next.batch());
                    switch (faults.fate(next.seq())) {
                        case SEND -> {
                            send(pub, next.seq(), payload);
                            if (held != null) {
                                liveReordered.incrementAndGet();
                            }
                            held = sendHeld(pub, held);
                        }
                        case DROP -> liveDropped.incrementAndGet();
                        case HOLD -> {
                            held = sendHeld(pub, held);
                            held = new Kept(next.seq(), payload, System.nanoTime());
                        }
                    }
                    buffer.add(next.seq(), payload);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "publishing KV events failed", e);
                }
            }
            sendHeld(pub, held);
        } finally {
            pub.close();
            if (replay != null) {
                replay.close();
            }
        }
    }

    /** An encoded batch held back from the live stream. */
    private record Kept(long seq, byte[] payload, long sinceNanos) {
    }

    private void send(ZMQ.Socket pub, long seq, byte[] payload) {
        pub.sendMore(topic);
        pub.sendMore(seqBytes(seq));
        pub.send(payload, 0);
        published.incrementAndGet();
    }

    /** Sends the held batch, if any; returns null (nothing held any more). */
    private Kept sendHeld(ZMQ.Socket pub, Kept held) {
        if (held != null) {
            send(pub, held.seq(), held.payload());
        }
        return null;
    }

    /** Answers one waiting replay request, if any, without blocking. */
    private void serveReplay(ZMQ.Socket replay) {
        byte[] client = replay.recv(ZMQ.DONTWAIT);
        if (client == null) {
            return;
        }
        List<byte[]> frames = new ArrayList<>(3);
        frames.add(client);
        while (replay.hasReceiveMore()) {
            frames.add(replay.recv(0));
        }
        if (frames.size() != 3 || frames.get(1).length != 0) {
            LOG.log(Level.WARNING, "ignoring a replay request of {0} frames; expected [client, \"\", seq]",
                    frames.size());
            return;
        }
        replays.incrementAndGet();
        long start = 0;
        for (byte b : frames.get(2)) {
            start = (start << 8) | (b & 0xff);
        }
        for (ReplayBuffer.Entry e : buffer.from(start)) {
            replay.sendMore(client);
            replay.sendMore(new byte[0]);
            replay.sendMore(seqBytes(e.seq()));
            replay.send(e.payload(), 0);
        }
        replay.sendMore(client);
        replay.sendMore(new byte[0]);
        replay.sendMore(END_SEQ);
        replay.send(new byte[0], 0);
    }

    static byte[] seqBytes(long seq) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (seq >>> (56 - 8 * i));
        }
        return b;
    }
}
