package dev.homing.router.learned;

import dev.homing.core.learned.ApproxIndex;
import dev.homing.core.learned.LearnedState;
import dev.homing.core.learned.NewcomerLru;
import dev.homing.router.shared.RedisWriter;
import dev.homing.router.shared.SharedRedis;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

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
    /**
     * Blocks a record (one prompt's) is taken to hold when an index's stream history is sized from the index's bound:
     * {@code maxIndexedBlocks / 64} records is about what a full copy holds (1,000,000 blocks: 15,625 records).
     */
    static final long TYPICAL_RECORD_BLOCKS = 64;
    /** Fewest and most changes an index's stream keeps (a record of 64 blocks is about 0.7 KB in Redis). */
    static final long MIN_APPROX_HISTORY = 4096;
    static final long MAX_APPROX_HISTORY = 65_536;

    private final SharedRedis redis;
    private final RedisWriter writer;
    private final StreamAppends appends;
    private final StreamFollower follower;
    private final Map<String, Object> made = new ConcurrentHashMap<>();
    private final Predicate<String> inPool;

    public RedisLearnedState(SharedRedis redis) {
        this(redis, endpoint -> true);
    }

    /**
     * @param inPool whether an endpoint is in this replica's pool now: another replica's record for one that is not
     *               (gone here, or not yet known here) is dropped, not applied
     */
    public RedisLearnedState(SharedRedis redis, Predicate<String> inPool) {
        this.redis = redis;
        this.inPool = inPool;
        String replica = UUID.randomUUID().toString();
        this.writer = new RedisWriter(redis, BACKGROUND_WRITES, "homing-redis-learned-writer");
        this.appends = new StreamAppends(redis, writer, replica);
        this.follower = new StreamFollower(redis, replica);
    }

    @Override
    public ApproxIndex approxIndex(String producer, long maxEntries) {
        String key = redis.key("learned:approx:" + producer);
        return (ApproxIndex) made.compute(key, (k, old) -> old instanceof SharedApproxIndex s
                && s.bound() == maxEntries ? old : followed(new SharedApproxIndex(k, maxEntries,
                approxHistory(maxEntries), appends, inPool)));
    }

    /**
     * The changes an index's stream keeps, which a starting replica (every rollout's) replays to warm its copy: about
     * the records a full copy of {@code maxEntries} blocks holds, so that a newcomer learns what its peers know,
     * within {@link #MIN_APPROX_HISTORY} and {@link #MAX_APPROX_HISTORY}.
     */
    static long approxHistory(long maxEntries) {
        return Math.clamp(maxEntries / TYPICAL_RECORD_BLOCKS, MIN_APPROX_HISTORY, MAX_APPROX_HISTORY);
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
