package dev.homing.router.learned;

import dev.homing.router.shared.RedisWriter;
import dev.homing.router.shared.SharedRedis;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.params.XAddParams;

/**
 * Appends changes to learned-state streams, on the background writer: the caller (under the decision lock) only
 * queues. Every stream is bounded twice: {@code MAXLEN ~ history} (Redis trims the oldest entries), and an expiry,
 * refreshed as it is written, so that the streams of a pool nobody runs any more go.
 */
final class StreamAppends {

    /** How long a stream outlives its last append. */
    static final Duration TTL = Duration.ofHours(1);
    /** The expiry is refreshed at most this often per stream (not on every append: one round trip fewer). */
    private static final long REFRESH_NANOS = Duration.ofSeconds(10).toNanos();

    private final SharedRedis redis;
    private final RedisWriter writer;
    private final String replica;
    private final Map<String, Long> refreshed = new ConcurrentHashMap<>();
    private final AtomicLong queued = new AtomicLong();
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong written = new AtomicLong();

    StreamAppends(SharedRedis redis, RedisWriter writer, String replica) {
        this.redis = redis;
        this.writer = writer;
        this.replica = replica;
    }

    /** This replica's id, which its appends carry so that its own follower skips them. */
    String replica() {
        return replica;
    }

    /** Queues an append of {@code fields} (with this replica's id) to {@code key}; never waits. */
    void append(String key, long history, Map<String, String> fields) {
        fields.put(Fields.REPLICA, replica);
        queued.incrementAndGet();
        boolean taken = writer.submit(() -> {
            try {
                write(key, history, fields);
            } finally {
                done.incrementAndGet();
            }
        });
        if (!taken) {
            done.incrementAndGet();
        }
    }

    /** Whether every append queued so far has been run (whether Redis took it or not). */
    boolean idle() {
        return done.get() == queued.get();
    }

    /** Appends Redis took. */
    long written() {
        return written.get();
    }

    private void write(String key, long history, Map<String, String> fields) {
        redis.attempt(j -> {
            j.xadd(key, XAddParams.xAddParams().maxLen(history).approximateTrimming(), fields);
            long now = System.nanoTime();
            Long last = refreshed.get(key);
            if (last == null || now - last >= REFRESH_NANOS) {
                j.expire(key, TTL.toSeconds());
                refreshed.put(key, now);
            }
            written.incrementAndGet();
            return Boolean.TRUE;
        });
    }

    /** The field names of an append. */
    static final class Fields {
        static final String REPLICA = "r";
        static final String OP = "o";
        static final String ENDPOINT = "e";
        static final String CAPACITY = "c";
        static final String STAMP = "s";
        static final String HASHES = "h";

        private Fields() {
        }
    }
}
