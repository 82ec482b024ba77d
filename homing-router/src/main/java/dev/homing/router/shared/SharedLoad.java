package dev.homing.router.shared;

import dev.homing.core.endpoint.EndpointLoad;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.endpoint.LoadListener;
import dev.homing.core.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Requests in flight shared among a pool's router replicas, so that N replicas deciding within one metrics cycle do
 * not all send their requests to the pod that looks idle to each of them (Dynamo #589).
 *
 * <p>Layout under {@code homing:<pool>:load:}: {@code replicas}, a set of replica ids; {@code hb:<replica>}, a key
 * with a TTL ({@code heartbeatTtl}) that says the replica is alive; {@code n:<replica>}, a hash of that replica's own
 * counts per pod ({@code r|<pod>} requests, {@code t|<pod>} tokens; zero counts are absent), bounded by the pool.
 *
 * <p>The request path only notes which pod changed and wakes the syncer; it never waits. The syncer (one thread)
 * runs a round when woken (at most every {@code minGap}) and at least every {@code syncInterval}: one script call that
 * writes the changed pods' counts as absolute values, refreshes the heartbeat when due (rewriting every count then),
 * and returns the other live replicas' counts summed per pod, which it sets on the local {@link EndpointLoad}s.
 * Absolute values rather than increments: a lost write, an outage or a Redis restart cannot leave a count that
 * drifts; the next heartbeat corrects everything. Counts of replicas whose heartbeat expired are ignored and deleted
 * by whoever sees them first; a replica that closes deletes its own.
 *
 * <p>While Redis is down, other replicas' counts are taken as zero: each replica routes on its own load.
 */
public final class SharedLoad implements LoadListener, AutoCloseable {

    private static final RedisScript SYNC = RedisScript.load(SharedLoad.class, "load-sync");

    private final SharedRedis redis;
    private final EndpointPool pool;
    private final Ticker ticker;
    private final String replica;
    private final String prefix;
    private final Duration syncInterval;
    private final Duration minGap;
    private final Duration heartbeatTtl;
    private final Duration heartbeatInterval;
    private final Set<String> changed = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean republish = true;
    private volatile boolean remotesZeroed = true;
    private volatile long rounds;

    /**
     * @param replica      this replica's id among the pool's replicas (unique, e.g. random)
     * @param syncInterval longest time between two readings of the others' counts (~20 ms)
     * @param minGap       shortest time between two rounds when requests keep changing the counts
     * @param heartbeatTtl how long a replica that stopped refreshing its heartbeat still counts
     */
    public SharedLoad(SharedRedis redis, EndpointPool pool, Ticker ticker, String replica, Duration syncInterval,
                      Duration minGap, Duration heartbeatTtl) {
        this.redis = redis;
        this.pool = pool;
        this.ticker = ticker;
        this.replica = replica;
        this.prefix = redis.key("load:");
        this.syncInterval = syncInterval;
        this.minGap = minGap;
        this.heartbeatTtl = heartbeatTtl;
        this.heartbeatInterval = heartbeatTtl.dividedBy(4);
        this.thread = new Thread(this::loop, "homing-shared-load");
        this.thread.setDaemon(true);
        redis.onRecovered(() -> {
            republish = true; // Redis may have restarted empty: write every count again at once
            LockSupport.unpark(thread);
        });
    }

    public void start() {
        thread.start();
    }

    public String replica() {
        return replica;
    }

    /** Rounds completed with Redis (for tests and diagnostics). */
    public long rounds() {
        return rounds;
    }

    @Override
    public void acquired(String endpoint, long totalTokens) {
        changed(endpoint);
    }

    @Override
    public void released(String endpoint, long totalTokens) {
        changed(endpoint);
    }

    private void changed(String endpoint) {
        if (changed.add(endpoint)) {
            LockSupport.unpark(thread);
        }
    }

    private void loop() {
        long lastRound = ticker.nanos() - syncInterval.toNanos();
        long lastHeartbeat = lastRound;
        while (running) {
            long now = ticker.nanos();
            long sinceRound = now - lastRound;
            boolean due = sinceRound >= syncInterval.toNanos() || !changed.isEmpty() && sinceRound >= minGap.toNanos();
            if (!due) {
                long wait = changed.isEmpty() ? syncInterval.toNanos() - sinceRound : minGap.toNanos() - sinceRound;
                LockSupport.parkNanos(this, Math.max(wait, 1));
                continue;
            }
            lastRound = now;
            boolean heartbeat = republish || now - lastHeartbeat >= heartbeatInterval.toNanos();
            if (round(heartbeat) && heartbeat) {
                lastHeartbeat = now;
                republish = false;
            }
        }
    }

    /** One round; false when Redis could not be used. */
    private boolean round(boolean heartbeat) {
        if (!redis.up()) {
            zeroRemotes();
            return false;
        }
        List<String> names = heartbeat ? pool.snapshot().endpoints().stream().map(EndpointState::name).toList()
                : List.copyOf(changed);
        List<String> args = new ArrayList<>(3 + names.size() * 4);
        args.add(prefix);
        args.add(replica);
        args.add(heartbeat ? Long.toString(Math.max(1, heartbeatTtl.toMillis())) : "0");
        for (String pod : names) {
            changed.remove(pod); // before reading the counts, so that a change made meanwhile is sent next round
            EndpointLoad load = pool.load(pod);
            args.add("r|" + pod);
            args.add(Integer.toString(load == null ? 0 : load.inFlightRequests()));
            args.add("t|" + pod);
            args.add(Long.toString(load == null ? 0 : load.inFlightTokens()));
        }
        @SuppressWarnings("unchecked")
        Optional<List<Object>> others = redis.attempt(r -> (List<Object>) SYNC.run(r, args));
        if (others.isEmpty()) {
            changed.addAll(names);
            zeroRemotes();
            return false;
        }
        Map<String, long[]> sums = new HashMap<>();
        List<Object> flat = others.get();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            String field = (String) flat.get(i);
            long value = (long) Double.parseDouble((String) flat.get(i + 1));
            long[] s = sums.computeIfAbsent(field.substring(2), p -> new long[2]);
            s[field.charAt(0) == 'r' ? 0 : 1] += value;
        }
        for (EndpointState e : pool.snapshot().endpoints()) {
            long[] s = sums.get(e.name());
            e.load().setRemote(s == null ? 0 : (int) Math.min(Integer.MAX_VALUE, s[0]), s == null ? 0 : s[1]);
        }
        remotesZeroed = false;
        rounds++;
        return true;
    }

    private void zeroRemotes() {
        if (!remotesZeroed) {
            pool.snapshot().endpoints().forEach(e -> e.load().setRemote(0, 0));
            remotesZeroed = true;
        }
    }

    /** Stops syncing and takes this replica's counts out of Redis, so the others stop counting them at once. */
    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (redis.up()) {
            redis.attempt(r -> {
                r.srem(prefix + "replicas", replica);
                return r.del(prefix + "hb:" + replica, prefix + "n:" + replica);
            });
        }
    }
}
