package dev.homing.router.learned;

import dev.homing.router.shared.SharedRedis;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XReadParams;
import redis.clients.jedis.resps.StreamEntry;

/**
 * One thread that reads every learned-state stream and applies the other replicas' appends to this replica's copies.
 * A stream is read from its start when first followed, so a replica that starts (or a plugin a reload adds) replays
 * the history the stream keeps before it follows it live. While Redis is down it waits; when it returns it goes on
 * from where it was (what was appended meanwhile by others is read then; what could not be appended is lost).
 */
final class StreamFollower implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(StreamFollower.class.getName());
    /** Longest block on one read: below the client's socket timeout, and how soon a newly followed stream is read. */
    static final int BLOCK_MILLIS = 100;
    private static final int BATCH = 1024;
    private static final long IDLE_MILLIS = 50;
    private static final long COALESCE_NANOS = StreamAppends.COALESCE_NANOS;

    private final SharedRedis redis;
    private final String replica;
    private final Map<String, Followed> streams = new ConcurrentHashMap<>();
    private final LongAdder applied = new LongAdder();
    private final Thread thread;
    private volatile boolean running = true;

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
        while (running) {
            if (streams.isEmpty() || !redis.up()) {
                pause();
                continue;
            }
            Map<String, Followed> now = Map.copyOf(streams);
            Map<String, StreamEntryID> from = new HashMap<>();
            now.forEach((key, f) -> from.put(key, f.last));
            var read = redis.attempt(j -> {
                var r = j.xread(XReadParams.xReadParams().block(BLOCK_MILLIS).count(BATCH), from);
                return r == null ? List.<Map.Entry<String, List<StreamEntry>>>of() : r;
            });
            if (read.isEmpty()) {
                pause();
                continue;
            }
            boolean any = false;
            for (Map.Entry<String, List<StreamEntry>> stream : read.get()) {
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
