package dev.homing.router.shared;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * The Redis that a pool's router replicas share, and whether it can be reached now.
 *
 * <p>Redis is an aid, never a dependency: when a call cannot reach it, it is marked down, a warning is logged once for
 * the outage, and until a probe reaches it again no call is tried at all, so requests fall back to this replica's
 * local state at once instead of each waiting out a timeout. Every operation that fell back is counted. A probe every
 * {@code probeInterval} notices both an outage nobody's call has hit yet and the return; on return the connections
 * made before the outage are dropped and the recovery listeners run.
 *
 * <p>Keys are namespaced {@code homing:<pool>:}, so pools can share one Redis. Scripts build their key names from that
 * prefix, which a single Redis allows (not Redis Cluster).
 */
public final class SharedRedis implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(SharedRedis.class.getName());

    private final RedisClient client;
    private final HostAndPort address;
    private final DefaultJedisClientConfig.Builder config;
    private final String where;
    private final String prefix;
    private final AtomicBoolean up = new AtomicBoolean(true);
    private final AtomicBoolean dataErrorLogged = new AtomicBoolean();
    private final LongAdder fallbacks = new LongAdder();
    private final List<Runnable> recoveryListeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService prober = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "homing-redis-probe");
        t.setDaemon(true);
        return t;
    });

    private final Duration probeInterval;

    private SharedRedis(RedisClient client, HostAndPort address, DefaultJedisClientConfig.Builder config, String where,
                        String poolName, Duration probeInterval) {
        this.client = client;
        this.address = address;
        this.config = config;
        this.where = where;
        this.prefix = "homing:" + poolName + ":";
        this.probeInterval = probeInterval;
    }

    /**
     * A client for the Redis at {@code url}. It connects when first used: an unreachable Redis is not an error, the
     * replica starts on its local state.
     *
     * @param url           {@code redis://[user:password@]host:port[/db]}
     * @param timeout       longest wait for a connection or a reply before Redis counts as down
     * @param probeInterval how often reachability is checked once {@link #start() started}
     * @throws IllegalArgumentException when the URL is not a Redis URL
     */
    public static SharedRedis create(String url, String poolName, Duration timeout, Duration probeInterval) {
        Objects.requireNonNull(poolName, "poolName");
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a Redis URL: '" + url + "' (" + e.getMessage() + ")", e);
        }
        if (!JedisURIHelper.isValid(uri) || !JedisURIHelper.isRedisScheme(uri) && !JedisURIHelper.isRedisSSLScheme(uri)) {
            throw new IllegalArgumentException("not a Redis URL: '" + url + "'; expected redis://host:port");
        }
        int millis = (int) Math.max(1, timeout.toMillis());
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(millis).socketTimeoutMillis(millis)
                .user(JedisURIHelper.getUser(uri)).password(JedisURIHelper.getPassword(uri))
                .database(JedisURIHelper.getDBIndex(uri)).ssl(JedisURIHelper.isRedisSSLScheme(uri))
                .clientName("homing-" + poolName);
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(64);
        pool.setMaxIdle(16);
        pool.setMinIdle(0);
        pool.setMaxWait(timeout); // a pool that cannot serve in time is a fallback, like a slow Redis
        HostAndPort address = JedisURIHelper.getHostAndPort(uri);
        RedisClient client = RedisClient.builder().hostAndPort(address)
                .clientConfig(config.build()).poolConfig(pool).build();
        return new SharedRedis(client, address, config, uri.getHost() + ":" + uri.getPort(), poolName, probeInterval);
    }

    /**
     * A connection of its own, outside the shared pool, for a blocking read (XREAD BLOCK): every read on it, blocking
     * or not, waits up to {@code socketTimeout}. On the pool's connections Jedis lifts the socket timeout for a
     * blocking command altogether (its {@code blockingSocketTimeoutMillis} is 0 there), so a connection gone silent
     * would hold the reader, and a pooled connection, for ever. It connects when first used; the caller closes it.
     */
    public Jedis connection(Duration socketTimeout) {
        int millis = (int) Math.max(1, socketTimeout.toMillis());
        synchronized (config) { // the builder is shared (the pool's config was built from it at create): one lock
            return new Jedis(address, config.socketTimeoutMillis(millis).blockingSocketTimeoutMillis(millis)
                    .autoNegotiateProtocol(false).build());
        }
    }

    /** Checks reachability now, then every probe interval. */
    public void start() {
        probe();
        long every = probeInterval.toNanos();
        prober.scheduleWithFixedDelay(this::probe, every, every, TimeUnit.NANOSECONDS);
    }

    /** {@code homing:<pool>:} followed by {@code name}. */
    public String key(String name) {
        return prefix + name;
    }

    /** Whether calls are being tried (the last call or probe reached Redis). */
    public boolean up() {
        return up.get();
    }

    /** Operations served by local state only because Redis could not be reached or could not keep up. */
    public long fallbacks() {
        return fallbacks.sum();
    }

    /** Counts an operation that used local state only. */
    public void fellBack() {
        fallbacks.increment();
    }

    /** Runs when Redis is reachable again after an outage (on the probe's thread; keep it short). */
    public void onRecovered(Runnable listener) {
        recoveryListeners.add(listener);
    }

    /**
     * Runs {@code op}, {@code operations} writes sent as one pipeline, against Redis unless it is down; never twice (a
     * pipeline retried would send again what Redis may have taken). When it cannot run, each of its operations
     * counts as a fallback.
     *
     * @return the op's result, or empty when Redis is down or the call failed
     */
    public <T> Optional<T> attemptOnce(Function<UnifiedJedis, T> op, int operations) {
        if (!up.get()) {
            fallbacks.add(operations);
            return Optional.empty();
        }
        try {
            return Optional.of(op.apply(client));
        } catch (JedisConnectionException e) {
            // a connection from before a restart of Redis is dropped with the others, so the next send gets a fresh one
            client.getPool().clear();
            fallbacks.add(operations - 1L);
            markDown(e);
        } catch (JedisException e) {
            fallbacks.add(operations - 1L);
            refused(e);
        }
        return Optional.empty();
    }

    /**
     * Runs {@code op} against Redis unless it is down.
     *
     * @return the op's result, or empty when Redis is down or the call failed; either way the fallback is counted
     */
    public <T> Optional<T> attempt(Function<UnifiedJedis, T> op) {
        if (!up.get()) {
            fallbacks.increment();
            return Optional.empty();
        }
        try {
            try {
                return Optional.of(op.apply(client));
            } catch (JedisConnectionException stale) {
                // Idle connections made before a restart of Redis are dead; drop them and try once on a fresh one.
                client.getPool().clear();
                return Optional.of(op.apply(client));
            }
        } catch (JedisConnectionException e) {
            markDown(e);
        } catch (JedisException e) {
            refused(e);
        }
        return Optional.empty();
    }

    /** Reached, but refused (out of memory, a replica that is read-only, a script error): not an outage. */
    private void refused(JedisException e) {
        fallbacks.increment();
        if (dataErrorLogged.compareAndSet(false, true)) {
            LOG.log(System.Logger.Level.WARNING, "Redis at " + where + " refused a call; this replica uses its "
                    + "local state for such calls (logged once): " + e.getMessage());
        }
    }

    private void markDown(Exception cause) {
        fallbacks.increment();
        wentDown(cause);
    }

    /** Logs an outage once, when it begins. */
    private void wentDown(Exception cause) {
        if (up.compareAndSet(true, false)) {
            LOG.log(System.Logger.Level.WARNING, "Redis at " + where + " cannot be reached (" + cause.getMessage()
                    + "); this replica routes on its local state until it returns");
        }
    }

    private void probe() {
        try {
            client.ping();
        } catch (JedisException e) {
            wentDown(e);
            return;
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Redis probe failed", e);
            return;
        }
        if (!up.get()) {
            client.getPool().clear(); // connections from before the outage are dead; do not let calls find them
            up.set(true);
            LOG.log(System.Logger.Level.INFO, "Redis at " + where + " is reachable again; shared state resumes");
            for (Runnable r : recoveryListeners) {
                try {
                    r.run();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "a Redis recovery listener failed", e);
                }
            }
        }
    }

    @Override
    public void close() {
        prober.shutdownNow();
        try {
            prober.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close();
    }
}
