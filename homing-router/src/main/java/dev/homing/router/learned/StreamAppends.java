package dev.homing.router.learned;

import dev.homing.router.shared.RedisWriter;
import dev.homing.router.shared.SharedRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.params.XAddParams;

/**
 * Appends changes to learned-state streams, on the background writer: the caller (under the decision lock) only
 * queues. The writer waits {@link #COALESCE_NANOS} and sends what has queued up as one pipeline (one round trip
 * however many picks were made meanwhile), and the caller wakes it only when no send is already on its way, so that
 * a decision costs at most one wake-up and usually none. Bounded: at most {@link #MAX_PENDING} appends wait; beyond, a change stays in this replica's copy only
 * (counted as a fallback). Every stream is bounded twice in Redis: {@code MAXLEN ~ history} (Redis trims the oldest
 * entries), and an expiry, refreshed as it is written, so that the streams of a pool nobody runs any more go.
 */
final class StreamAppends {

    /** How long a stream outlives its last append. */
    static final Duration TTL = Duration.ofHours(1);
    static final int MAX_PENDING = 8192;
    /** How long a send waits for more appends to join it. */
    static final long COALESCE_NANOS = Duration.ofMillis(5).toNanos();
    /** Most appends in one pipeline. */
    private static final int MAX_BATCH = 512;
    /** The expiry is refreshed at most this often per stream (not on every append). */
    private static final long REFRESH_NANOS = Duration.ofSeconds(10).toNanos();

    private final SharedRedis redis;
    private final RedisWriter writer;
    private final String replica;
    private final Map<String, Long> refreshed = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Append> pending = new ConcurrentLinkedQueue<>();
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicBoolean sending = new AtomicBoolean();
    private final AtomicLong queued = new AtomicLong();
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong written = new AtomicLong();

    private record Append(String key, long history, Map<String, String> fields) {
    }

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
        if (waiting.incrementAndGet() > MAX_PENDING) {
            waiting.decrementAndGet();
            done.incrementAndGet();
            redis.fellBack();
            return;
        }
        pending.add(new Append(key, history, fields));
        wake();
    }

    /** Has the writer send what is pending, unless a send is already queued or running (it will take this too). */
    private void wake() {
        if (sending.compareAndSet(false, true) && !writer.submit(this::send)) {
            sending.set(false);
        }
    }

    private void send() {
        try {
            // let the picks of the next few milliseconds join this send: one round trip for them all, instead of a
            // wake-up and a round trip per pick competing with the decisions for the CPU
            LockSupport.parkNanos(COALESCE_NANOS);
            List<Append> batch = new ArrayList<>();
            Append a;
            while (true) {
                batch.clear();
                while (batch.size() < MAX_BATCH && (a = pending.poll()) != null) {
                    batch.add(a);
                }
                if (batch.isEmpty()) {
                    return;
                }
                waiting.addAndGet(-batch.size());
                try {
                    write(batch);
                } finally {
                    done.addAndGet(batch.size());
                }
            }
        } finally {
            sending.set(false);
            if (!pending.isEmpty()) {
                wake(); // queued after the last poll, while this send still counted as running
            }
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

    /** One pipeline, sent once (not retried: Redis may have taken part of it); if it fails, each append falls back. */
    private void write(List<Append> batch) {
        redis.attemptOnce(j -> {
            try (AbstractPipeline p = j.pipelined()) {
                long now = System.nanoTime();
                for (Append a : batch) {
                    p.xadd(a.key(), XAddParams.xAddParams().maxLen(a.history()).approximateTrimming(), a.fields());
                    Long last = refreshed.get(a.key());
                    if (last == null || now - last >= REFRESH_NANOS) {
                        p.expire(a.key(), TTL.toSeconds());
                        refreshed.put(a.key(), now);
                    }
                }
                p.sync();
            }
            written.addAndGet(batch.size());
            return Boolean.TRUE;
        }, batch.size());
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
