package dev.homing.router.learned;

import dev.homing.router.shared.SharedRedis;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.params.XReadParams;
import redis.clients.jedis.resps.StreamEntry;

/**
 * One thread that reads every learned-state stream and applies the other replicas' appends to this replica's copies.
 * A stream is read from its start when first followed, so a replica that starts (or a plugin a reload adds) replays
 * the history the stream keeps before it follows it live. While Redis is down it waits; when it returns it goes on
 * from where it was (what was appended meanwhile by others is read then; what could not be appended is lost).
 *
 * <p>Its blocking read runs on a connection of its own, whose socket timeout outlasts the block by {@link #MARGIN}: on
 * the shared pool's, Jedis waits on a blocking command without any timeout, so a connection gone silent (a Redis
 * host lost without a reset) would stop following for ever and hold a pooled connection. A read that fails is no
 * outage (the probe, and the calls a decision waits on, say when Redis is down; an outage reported from here would
 * turn the precise index and the shared load off too): the connection is dropped and made again.
 */
final class StreamFollower implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(StreamFollower.class.getName());
    /** Longest block on one read: how soon a newly followed stream is read. */
    static final int BLOCK_MILLIS = 100;
    /** How much longer than the block a read may take before its connection is given up. */
    static final Duration MARGIN = Duration.ofSeconds(2);
    private static final int BATCH = 1024;
    private static final long IDLE_MILLIS = 50;
    private static final long COALESCE_NANOS = StreamAppends.COALESCE_NANOS;

    private final SharedRedis redis;
    private final String replica;
    private final Map<String, Followed> streams = new ConcurrentHashMap<>();
    private final LongAdder applied = new LongAdder();
    private final Thread thread;
    private volatile boolean running = true;
    /** The follower's own connection, or null until (again) needed: the follower's thread only. */
    private Jedis connection;
    private boolean failureLogged;

    /** A stream followed, and the last entry read from it. */
    private static final class Followed {
        final Replicated state;
        StreamEntryID last = new StreamEntryID(0, 0);

        Followed(Replicated state) {
            this.state = state;
        }
    }

    StreamFollower(SharedRedis redis, String replica) {
        this.redis = redis;
        this.replica = replica;
        this.thread = new Thread(this::run, "homing-redis-learned-follower");
        this.thread.setDaemon(true);
    }

    /** Follows {@code state}'s stream from its start, instead of whatever followed that stream before. */
    void follow(Replicated state) {
        streams.put(state.streamKey(), new Followed(state));
    }

    void start() {
        thread.start();
    }

    /** Other replicas' changes applied so far. */
    long applied() {
        return applied.sum();
    }

    private void run() {
        try {
            while (running) {
                try {
                    step();
                } catch (RuntimeException e) {
                    // whatever went wrong, following goes on (after a pause): a replica that stopped following
                    // would route on its own picks alone, silently
                    if (!failureLogged) {
                        failureLogged = true;
                        LOG.log(System.Logger.Level.WARNING, "following the shared learned state failed; it goes on "
                                + "(logged once)", e);
                    }
                    drop();
                    pause();
                }
            }
        } finally {
            drop();
        }
    }

    private void step() {
        if (streams.isEmpty() || !redis.up()) {
            pause();
            return;
        }
        Map<String, Followed> now = Map.copyOf(streams);
        Map<String, StreamEntryID> from = new HashMap<>();
        now.forEach((key, f) -> from.put(key, f.last));
        List<Map.Entry<String, List<StreamEntry>>> read;
        try {
            if (connection == null) {
                connection = redis.connection(Duration.ofMillis(BLOCK_MILLIS).plus(MARGIN));
            }
            read = connection.xread(XReadParams.xReadParams().block(BLOCK_MILLIS).count(BATCH), from);
        } catch (JedisConnectionException e) {
            drop(); // timed out or cut: not an outage (the probe tells), the next read makes a new connection
            pause();
            return;
        }
        if (read == null || read.isEmpty()) {
            return; // the block ran out with nothing new
        }
        boolean any = false;
        for (Map.Entry<String, List<StreamEntry>> stream : read) {
            Followed f = now.get(stream.getKey());
            if (f == null || streams.get(stream.getKey()) != f) {
                continue; // replaced meanwhile: the new one reads from the start
            }
            for (StreamEntry e : stream.getValue()) {
                any = true;
                f.last = e.getID();
                if (!replica.equals(e.getFields().get(StreamAppends.Fields.REPLICA))) {
                    try {
                        f.state.apply(e.getFields());
                        applied.increment();
                    } catch (RuntimeException ex) {
                        LOG.log(System.Logger.Level.WARNING, "a shared learned-state change could not be applied", ex);
                    }
                }
            }
        }
        if (any) {
            // as the writer does: let the next few milliseconds' appends gather into one read
            LockSupport.parkNanos(COALESCE_NANOS);
        }
    }

    private void drop() {
        if (connection != null) {
            try {
                connection.close();
            } catch (RuntimeException ignored) {
                // it is being given up
            }
            connection = null;
        }
    }

    private void pause() {
        try {
            Thread.sleep(IDLE_MILLIS);
        } catch (InterruptedException e) {
            running = false;
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
