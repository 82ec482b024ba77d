package dev.homing.router.precise.redis;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.precise.BlockKeys;
import dev.homing.core.precise.InMemoryPreciseIndex;
import dev.homing.core.precise.IndexChanges;
import dev.homing.core.precise.IndexStats;
import dev.homing.core.precise.PreciseIndex;
import dev.homing.core.precise.PreciseIndexFactory;
import dev.homing.core.precise.StoredBlocks;
import dev.homing.core.time.Ticker;
import dev.homing.protocol.kvevents.AllBlocksCleared;
import dev.homing.protocol.kvevents.BlockRemoved;
import dev.homing.protocol.kvevents.BlockStored;
import dev.homing.protocol.kvevents.EventBlockHash;
import dev.homing.protocol.kvevents.KvCacheEvent;
import dev.homing.router.shared.RedisScript;
import dev.homing.router.shared.SharedRedis;
import java.lang.ref.WeakReference;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A {@link PreciseIndex} kept in Redis, so that router replicas that do not each subscribe to the pods' KV events read
 * the same ownership as those that do. Alongside, this replica keeps two {@link InMemoryPreciseIndex}es: its local
 * state, which gets every write too and answers alone while Redis cannot be reached; and its recent picks (speculative
 * holds only), merged into Redis's answer so that a decision sees the picks made since its lookup began and those not
 * yet written. Redis answers for everything else: a replica's local copy can be stale (another replica may have taken
 * over a pod's events) and must not outvote it.
 *
 * <p>Layout, in the spirit of llm-d's Redis index (a hash per block key with a field per pod entry; engine hashes
 * mapped to keys), under {@code homing:<pool>:precise:<blockSize>:<seed>:}:
 * <ul>
 *   <li>{@code b:<key>} hash: {@code tier|pod} → {@code 0} (confirmed by an event) or a speculative expiry (epoch µs);
 *   <li>{@code e:<pod>} hash: engine block hash → key, so removals resolve and a replica that takes over a pod's
 *       events chains its new blocks from parents it never saw; forgotten after {@code engineTtl} without events;
 *   <li>{@code p:<pod>} set of {@code tier|key}: what a clear removes, and the per-pod size;
 *   <li>{@code lru} sorted set of {@code tier|key|pod} by store order: <b>the bound</b>, at most {@code maxEntries}
 *       holdings over all pods and replicas, the least recently stored evicted first (as in memory);
 *   <li>{@code s} sorted set of speculative holdings by expiry, swept by lookups; {@code seq} the store counter;
 *       {@code adapters} the LoRA names seen in events (a replica must know them to start a prompt's chain).
 * </ul>
 * Every change is one Lua script call, atomic among replicas. Lookups are one script call that returns, block by
 * block, the holdings of the pods whose run reaches that block, and stops at the first block that extends none; it
 * runs in {@link #lookup}, before the decision lock. Speculative holds are written in the background: they are made
 * under the decision lock, which must not wait on the network.
 *
 * <p>Speculative expiries cross replicas as wall-clock microseconds: this index maps its ticker onto the clock once,
 * at construction, so replicas agree to within their clocks' skew (the TTL is seconds).
 *
 * <p>When Redis cannot be reached, everything is answered and written locally, and the writes of the pods' events
 * wait, per pod and in order ({@link Backlog}, bounded), to be sent when Redis returns, before the pod's next ones:
 * a Redis that kept its data (stopped, or cut off) would otherwise keep holdings a pod removed or cleared meanwhile,
 * and send every replica's requests to blocks that are gone. A Redis restarted empty gets what changed during the
 * outage; what it held before is lost (the pods' next events and picks refill it). Speculative holds made meanwhile
 * are not kept (they last seconds).
 */
final class RedisPreciseIndex implements PreciseIndex {

    private static final RedisScript WRITE = RedisScript.load(RedisPreciseIndex.class, "precise-write");
    private static final RedisScript CLEAR = RedisScript.load(RedisPreciseIndex.class, "precise-clear");
    private static final RedisScript MATCH = RedisScript.load(RedisPreciseIndex.class, "precise-match");
    private static final int CLEAR_CHUNK = 1000;
    private static final long ADAPTER_REFRESH_NANOS = 1_000_000_000L;
    /** In-memory indexes put all unconfigured tiers in one bucket of weight 1.0; this is its name here. */
    private static final String OTHER_TIER = "*";
    /** Arguments of index writes kept for Redis while it is down, over all pods: about 10 MB at most. */
    static final long MAX_BACKLOG_ARGS = 1 << 19;

    private final SharedRedis redis;
    private final Consumer<Runnable> background;
    private final InMemoryPreciseIndex local;
    private final InMemoryPreciseIndex recent;
    private final String ns;
    private final long maxEntries;
    private final int blockSize;
    private final long seed;
    private final Map<String, Double> weights;
    private final String speculativeTier;
    private final long engineTtlMillis;
    private final Ticker ticker;
    private final long anchorNanos;
    private final long anchorMicros;
    private final Set<String> adapters = ConcurrentHashMap.newKeySet();
    private final AtomicLong adaptersReadAt;
    /** Per pod, the index writes waiting for Redis; its monitor orders the pod's writes. Bounded by the pool. */
    private final Map<String, Backlog> backlogs = new ConcurrentHashMap<>();
    private final AtomicLong backloggedArgs = new AtomicLong();

    /**
     * @param background runs writes that must not wait (speculative holds, adapter refreshes): the router's bounded
     *                   {@link dev.homing.router.shared.RedisWriter}
     * @param engineTtl  how long a pod's engine-hash map outlives its last event
     */
    RedisPreciseIndex(SharedRedis redis, Consumer<Runnable> background, Ticker ticker, Clock clock,
                      Duration engineTtl, long maxEntries, int blockSize, long seed,
                      Map<String, Double> tierWeights) {
        this.local = new InMemoryPreciseIndex(maxEntries, blockSize, seed, tierWeights);
        this.recent = new InMemoryPreciseIndex(maxEntries, blockSize, seed, tierWeights);
        this.redis = redis;
        this.background = background;
        this.ns = redis.key("precise:" + blockSize + ":" + Long.toHexString(seed) + ":");
        this.maxEntries = maxEntries;
        this.blockSize = blockSize;
        this.seed = seed;
        this.weights = Map.copyOf(tierWeights);
        // A pick computes the prompt on the GPU: speculative holdings are GPU holdings, as in memory.
        this.speculativeTier = tier("GPU");
        this.engineTtlMillis = Math.max(1, engineTtl.toMillis());
        this.ticker = ticker;
        this.anchorNanos = ticker.nanos();
        Instant now = clock.instant();
        this.anchorMicros = Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1000);
        this.adaptersReadAt = new AtomicLong(anchorNanos - ADAPTER_REFRESH_NANOS);
        // Redis is back: what waited is sent at once, off the probe's thread (weakly: a reload drops this index).
        WeakReference<RedisPreciseIndex> self = new WeakReference<>(this);
        redis.onRecovered(() -> {
            RedisPreciseIndex index = self.get();
            if (index != null) {
                background.accept(index::flushBacklogs);
            }
        });
    }

    /** Makes Redis-backed indexes for a {@code precise-prefix-cache-producer}. */
    static PreciseIndexFactory factory(SharedRedis redis, Consumer<Runnable> background, Ticker ticker, Clock clock,
                                       Duration engineTtl) {
        return (maxEntries, blockSize, seed, tiers) -> new RedisPreciseIndex(redis, background, ticker, clock,
                engineTtl, maxEntries, blockSize, seed, tiers);
    }

    @Override
    public int blockSize() {
        return blockSize;
    }

    @Override
    public long root(String model, String cacheSalt) {
        long now = ticker.nanos();
        long last = adaptersReadAt.get();
        if (now - last >= ADAPTER_REFRESH_NANOS && redis.up() && adaptersReadAt.compareAndSet(last, now)) {
            background.accept(() -> redis.attempt(r -> r.smembers(ns + "adapters")).ifPresent(adapters::addAll));
        }
        return BlockKeys.root(seed, model != null && adapters.contains(model) ? model : null, cacheSalt);
    }

    @Override
    public int apply(String podName, List<KvCacheEvent> events) {
        Map<Long, Long> fetched = null;
        if (!redis.up()) {
            redis.fellBack();
        } else {
            fetched = fetchUnknownParents(podName, events); // null: Redis went away while resolving
        }
        if (fetched != null) {
            fetched.forEach((engine, key) -> local.learn(podName, engine, key));
        }
        Mirror mirror = new Mirror(podName);
        int skipped = local.apply(podName, events, mirror);
        if (mirror.cleared) {
            recent.clear(podName); // a pod that cleared its cache holds none of our picks
        }
        send(podName, mirror.steps());
        return skipped;
    }

    /** How one write to Redis went. */
    private enum Sent { DONE, REFUSED, DOWN }

    /**
     * Sends a pod's writes in order, after whatever of the pod's earlier writes waits for Redis; what Redis cannot take
     * now (it is down) waits in the pod's backlog. The backlog's monitor orders the pod's writes among threads (its
     * events' worker, and the writer that flushes backlogs when Redis returns).
     */
    private void send(String pod, List<Object> steps) {
        Backlog backlog = backlogs.computeIfAbsent(pod, p -> new Backlog(backloggedArgs, MAX_BACKLOG_ARGS));
        synchronized (backlog) {
            boolean direct = flush(pod, backlog);
            for (Object step : steps) {
                if (direct) {
                    Sent sent = sendStep(pod, step);
                    if (sent == Sent.DONE) {
                        continue;
                    }
                    if (sent == Sent.REFUSED) {
                        return; // the rest would land on a Redis that lost the start of the batch
                    }
                    direct = false; // Redis went away: this step and the rest wait for it
                }
                backlog.add(step);
            }
        }
    }

    /** Sends the pod's backlog, oldest first; true when nothing of it waits any more. Hold the backlog's monitor. */
    private boolean flush(String pod, Backlog backlog) {
        if (backlog.isEmpty()) {
            return true;
        }
        if (!redis.up()) {
            return false;
        }
        if (backlog.overflowed()) {
            if (!clearRemote(pod)) {
                return false;
            }
            backlog.clearedRemotely();
        }
        for (Object step = backlog.peek(); step != null; step = backlog.peek()) {
            if (sendStep(pod, step) == Sent.DOWN) {
                return false;
            }
            backlog.remove(); // sent, or refused (dropped, as any write Redis refuses)
        }
        return true;
    }

    private Sent sendStep(String pod, Object step) {
        if (!redis.up()) {
            return Sent.DOWN;
        }
        boolean done = step == Backlog.CLEAR ? clearRemote(pod)
                : redis.attempt(r -> WRITE.run(r, ((IndexWrites) step).args())).isPresent();
        return done ? Sent.DONE : redis.up() ? Sent.REFUSED : Sent.DOWN;
    }

    /** Sends every pod's backlog: Redis is back. Runs on the background writer. */
    void flushBacklogs() {
        backlogs.forEach((pod, backlog) -> {
            synchronized (backlog) {
                if (flush(pod, backlog) && backlog.isDeparted()) {
                    backlogs.remove(pod, backlog);
                }
            }
        });
    }

    /** Index writes waiting for Redis, over all pods (for tests and diagnostics). */
    long backlogged() {
        return backloggedArgs.get();
    }

    /**
     * The Redis writes for a batch, in order, as the local index keys it: {@link IndexWrites} between clears, and
     * {@link Backlog#CLEAR} for each clear.
     */
    private final class Mirror implements IndexChanges {
        private final String pod;
        private final List<Object> steps = new ArrayList<>();
        private IndexWrites writes = newWrites();
        private boolean cleared;

        Mirror(String pod) {
            this.pod = pod;
        }

        @Override
        public void held(String medium, long key) {
            writes.hold(pod, tier(medium), key, 0);
        }

        @Override
        public void mapped(long engine, long key) {
            writes.mapEngine(pod, engine, key);
        }

        @Override
        public void removed(String medium, long engine) {
            writes.removeByEngine(pod, tier(medium), engine); // Redis may know hashes this replica does not
        }

        @Override
        public void adapter(String loraName) {
            adapters.add(loraName);
            writes.adapter(loraName);
        }

        @Override
        public void cleared() {
            cleared = true;
            if (!writes.isEmpty()) {
                steps.add(writes);
                writes = newWrites();
            }
            steps.add(Backlog.CLEAR);
        }

        List<Object> steps() {
            if (!writes.isEmpty()) {
                steps.add(writes);
                writes = newWrites();
            }
            return steps;
        }
    }

    /**
     * Engine hashes the batch chains from that neither the batch itself nor this replica knows, as Redis maps them:
     * this replica may have started after the pod stored them, or taken over its events from another.
     *
     * @return what Redis knew (possibly nothing), or null when Redis could not be asked
     */
    private Map<Long, Long> fetchUnknownParents(String pod, List<KvCacheEvent> events) {
        Set<Long> defined = new HashSet<>();
        Set<Long> wanted = new LinkedHashSet<>();
        boolean cleared = false;
        for (KvCacheEvent e : events) {
            switch (e) {
                case BlockStored s -> {
                    if (s.tokenCount() == 0) {
                        for (EventBlockHash h : s.blockHashes()) {
                            want(pod, h.asUint64(), defined, cleared, wanted);
                        }
                    } else if (StoredBlocks.keyable(s, blockSize)) {
                        if (s.parentBlockHash() != null) {
                            want(pod, s.parentBlockHash().asUint64(), defined, cleared, wanted);
                        }
                        s.blockHashes().forEach(h -> defined.add(h.asUint64()));
                    }
                }
                case BlockRemoved r -> {
                }
                case AllBlocksCleared c -> {
                    cleared = true;
                    defined.clear();
                }
            }
        }
        if (wanted.isEmpty()) {
            return Map.of();
        }
        String[] fields = wanted.stream().map(String::valueOf).toArray(String[]::new);
        Optional<List<String>> found = redis.attempt(r -> r.hmget(ns + "e:" + pod, fields));
        if (found.isEmpty()) {
            return null;
        }
        Map<Long, Long> known = new HashMap<>();
        for (int i = 0; i < fields.length; i++) {
            String key = found.get().get(i);
            if (key != null) {
                known.put(Long.parseLong(fields[i]), Long.parseLong(key));
            }
        }
        return known;
    }

    private void want(String pod, long engine, Set<Long> defined, boolean cleared, Set<Long> wanted) {
        if (!cleared && !defined.contains(engine) && local.keyOf(pod, engine).isEmpty()) {
            wanted.add(engine);
        }
    }

    private IndexWrites newWrites() {
        return new IndexWrites(ns, maxEntries, engineTtlMillis);
    }

    /** Clears a pod in Redis chunk by chunk; false when Redis could not finish it. */
    private boolean clearRemote(String pod) {
        List<String> args = List.of(ns, pod, Integer.toString(CLEAR_CHUNK));
        while (true) {
            Optional<Object> more = redis.attempt(r -> CLEAR.run(r, args));
            if (more.isEmpty()) {
                return false;
            }
            if (((Number) more.get()).longValue() == 0) {
                return true;
            }
        }
    }

    @Override
    public void holdSpeculatively(String podName, long[] keys, long untilNanos) {
        local.holdSpeculatively(podName, keys, untilNanos);
        recent.holdSpeculatively(podName, keys, untilNanos);
        if (keys.length == 0) {
            return;
        }
        long until = micros(untilNanos);
        writeInBackground(writes -> {
            for (int i = keys.length - 1; i >= 0; i--) {
                writes.hold(podName, speculativeTier, keys[i], until);
            }
        });
    }

    /** One {@code precise-write.lua} call of the changes {@code fill} makes, off the decision's thread. */
    private void writeInBackground(Consumer<IndexWrites> fill) {
        background.accept(() -> {
            IndexWrites writes = newWrites();
            fill.accept(writes);
            redis.attempt(r -> WRITE.run(r, writes.args()));
        });
    }

    @Override
    public void settleSpeculatively(String podName, long[] keys, long untilNanos) {
        local.settleSpeculatively(podName, keys, untilNanos);
        recent.settleSpeculatively(podName, keys, untilNanos);
        if (keys.length == 0) {
            return;
        }
        long until = micros(untilNanos);
        writeInBackground(writes -> {
            for (long key : keys) {
                writes.settle(podName, speculativeTier, key, until);
            }
        });
    }

    @Override
    public void clear(String podName) {
        local.clear(podName);
        recent.clear(podName);
        send(podName, List.of(Backlog.CLEAR));
    }

    @Override
    public void removePod(String podName) {
        local.removePod(podName);
        recent.removePod(podName);
        send(podName, List.of(Backlog.CLEAR));
        Backlog backlog = backlogs.get(podName);
        if (backlog != null) {
            synchronized (backlog) {
                if (backlog.isEmpty()) {
                    backlogs.remove(podName, backlog);
                } else {
                    backlog.departed(); // it goes once Redis has taken the pod's clear
                }
            }
        }
    }

    @Override
    public Match match(long[] keys, List<EndpointState> candidates, int snapshotSize, long nowNanos) {
        return lookup(keys, nowNanos).match(candidates, snapshotSize, nowNanos);
    }

    /**
     * Reads Redis now (one round trip); this replica's recent picks are read when the lookup is finished, under the
     * lock. Without Redis, the local state answers alone.
     */
    @Override
    @SuppressWarnings("unchecked")
    public Lookup lookup(long[] keys, long nowNanos) {
        if (keys.length == 0) {
            return (candidates, size, now) -> local.match(keys, candidates, size, now);
        }
        List<String> args = new ArrayList<>(keys.length + 2);
        args.add(ns);
        args.add(Long.toString(micros(nowNanos)));
        for (long k : keys) {
            args.add(Long.toString(k));
        }
        Optional<List<Object>> remote = redis.attempt(r -> (List<Object>) MATCH.run(r, args));
        if (remote.isEmpty()) {
            return (candidates, size, now) -> local.match(keys, candidates, size, now);
        }
        return (candidates, size, now) -> merge(recent.match(keys, candidates, size, now), remote.get(), candidates);
    }

    /** Per candidate, the longer run (the better weighted on a tie) of Redis's answer and this replica's picks. */
    @SuppressWarnings("unchecked")
    private Match merge(Match mine, List<Object> blocks, List<EndpointState> candidates) {
        Map<String, Run> runs = new HashMap<>();
        for (int i = 0; i < blocks.size(); i++) {
            for (Object o : (List<Object>) blocks.get(i)) {
                String field = (String) o;
                int bar = field.indexOf('|');
                double w = weight(field.substring(0, bar));
                Run run = runs.computeIfAbsent(field.substring(bar + 1), p -> new Run());
                if (run.blocks == i) {
                    run.blocks = i + 1;
                    run.last = w;
                    run.weighted += w;
                } else if (run.blocks == i + 1 && w > run.last) {
                    run.weighted += w - run.last; // the same block on a better tier
                    run.last = w;
                }
            }
        }
        int[] matched = mine.matchedBlocks().clone();
        double[] weighted = mine.weightedBlocks().clone();
        for (EndpointState c : candidates) {
            Run run = runs.get(c.name());
            int i = c.index();
            if (run != null && (run.blocks > matched[i] || run.blocks == matched[i] && run.weighted > weighted[i])) {
                matched[i] = run.blocks;
                weighted[i] = run.weighted;
            }
        }
        return new Match(matched, weighted, mine.totalBlocks());
    }

    /** One pod's run of leading blocks in a lookup. */
    private static final class Run {
        int blocks;
        double last;
        double weighted;
    }

    private String tier(String medium) {
        String name = StoredBlocks.tierName(medium);
        return weights.containsKey(name) ? name : OTHER_TIER;
    }

    private double weight(String tier) {
        return weights.getOrDefault(tier, 1.0);
    }

    /** A ticker reading as wall-clock epoch microseconds, comparable among replicas. */
    private long micros(long nanos) {
        return anchorMicros + Math.floorDiv(nanos - anchorNanos, 1000);
    }

    /** Redis's count while it is up (a metric reads it, so a down Redis is not asked and no fallback counted). */
    @Override
    public long size() {
        return redis.up() ? redis.attempt(r -> r.zcard(ns + "lru")).orElseGet(local::size) : local.size();
    }

    @Override
    public long size(String podName) {
        return redis.up() ? redis.attempt(r -> r.scard(ns + "p:" + podName)).orElseGet(() -> local.size(podName))
                : local.size(podName);
    }

    /** Counted as this replica applied the events (to its local index, which gets every one). */
    @Override
    public IndexStats stats() {
        return local.stats();
    }
}
