package dev.homing.router.learned;

import dev.homing.core.learned.ApproxIndex;
import dev.homing.core.learned.LearnedState;
import dev.homing.core.learned.NewcomerLru;
import dev.homing.router.shared.RedisWriter;
import dev.homing.router.shared.SharedRedis;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Learned state shared by a pool's router replicas through their Redis ({@link SharedApproxIndex},
 * {@link SharedNewcomerLru}): one stream per plugin name, {@code homing:<pool>:learned:approx:<producer>} and
 * {@code homing:<pool>:learned:newcomers:<scorer>}, so replicas running one config share each plugin's state. A plugin
 * made again under the same name and bound (a config reload) gets the same state back, so a reload forgets nothing.
 * Nothing runs before {@link #start()}.
 */
public final class RedisLearnedState implements LearnedState, AutoCloseable {

    /** The writer runs one send at a time ({@link StreamAppends} batches the appends): a small queue is enough. */
    static final int BACKGROUND_WRITES = 16;
    /** Most changes an index's stream keeps: what a starting replica replays (a record is one prompt's blocks). */
    static final long APPROX_HISTORY = 4096;

    private final SharedRedis redis;
    private final RedisWriter writer;
    private final StreamAppends appends;
    private final StreamFollower follower;
    private final Map<String, Object> made = new ConcurrentHashMap<>();

    public RedisLearnedState(SharedRedis redis) {
        this.redis = redis;
        String replica = UUID.randomUUID().toString();
        this.writer = new RedisWriter(redis, BACKGROUND_WRITES, "homing-redis-learned-writer");
        this.appends = new StreamAppends(redis, writer, replica);
        this.follower = new StreamFollower(redis, replica);
    }

    @Override
    public ApproxIndex approxIndex(String producer, long maxEntries) {
        String key = redis.key("learned:approx:" + producer);
        return (ApproxIndex) made.compute(key, (k, old) -> old instanceof SharedApproxIndex s
                && s.bound() == maxEntries ? old : followed(new SharedApproxIndex(k, maxEntries, APPROX_HISTORY,
                appends)));
    }

    @Override
    public NewcomerLru newcomerLru(String scorer, int size) {
        String key = redis.key("learned:newcomers:" + scorer);
        // a receipt is one endpoint: the last few times the bound rebuild the order in a starting replica
        return (NewcomerLru) made.compute(key, (k, old) -> old instanceof SharedNewcomerLru s && s.bound() == size
                ? old : followed(new SharedNewcomerLru(k, size, Math.min(4L * size, 65_536), appends)));
    }

    private Replicated followed(Replicated state) {
        follower.follow(state);
        return state;
    }

    public void start() {
        writer.start();
        follower.start();
    }

    /** Whether every change made here so far has been offered to Redis. */
    public boolean idle() {
        return appends.idle();
    }

    /** Changes made here that Redis took. */
    public long written() {
        return appends.written();
    }

    /** Other replicas' changes applied here so far. */
    public long applied() {
        return follower.applied();
    }

    @Override
    public void close() {
        follower.close();
        writer.close();
    }

    @Override
    public String toString() {
        return "shared through Redis";
    }
}
