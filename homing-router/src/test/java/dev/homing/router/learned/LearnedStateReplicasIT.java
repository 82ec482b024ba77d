package dev.homing.router.learned;

import static dev.homing.core.fixtures.Pools.metrics;
import static dev.homing.core.fixtures.Pools.scrape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.core.config.DefaultConfig;
import dev.homing.core.director.Director;
import dev.homing.core.director.Dispatch;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.learned.ApproxIndex;
import dev.homing.core.learned.LearnedState;
import dev.homing.core.learned.NewcomerLru;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.router.fixtures.RedisServerProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import dev.homing.router.shared.SharedRedis;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;

/**
 * Two replicas running Homing's default (approximate) config, each with its own director, pool and Redis client, on
 * one real redis-server: what one learns from its picks steers the other. Between two decisions the test waits for
 * the replicas to have applied each other's changes (on loopback a few milliseconds, as the writer and the follower
 * each gather 5 ms of changes; see docs/BENCHMARKS.md for the lag measured and what it costs in hit rate).
 */
class LearnedStateReplicasIT {

    private static RedisServerProcess server;
    private static RedisClient inspect;
    private RedisReplicas replicas;
    private int pools;

    @BeforeAll
    static void startRedis() {
        server = RedisServerProcess.start();
        inspect = RedisClient.create("127.0.0.1", server.port());
    }

    @AfterAll
    static void stopRedis() {
        if (inspect != null) {
            inspect.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void closeReplicas() {
        if (replicas != null) {
            replicas.close();
        }
    }

    private RedisReplicas replicas(String pool) {
        replicas = new RedisReplicas(server, pool + "-" + ++pools);
        return replicas;
    }

    /** A replica's director on three idle pods, its learned state where {@code learned} keeps it. */
    private static Director director(LearnedState learned) {
        EndpointPool pool = Pools.of(3);
        for (EndpointState e : pool.snapshot().endpoints()) {
            scrape(pool, e.name(), metrics(0, 0, 0.05));
        }
        FakeTicker ticker = new FakeTicker();
        PluginContext ctx = new PluginContext(ticker, new SplittableRandom(1), pool).withLearnedState(learned);
        return new Director(pool, DefaultConfig.resolve(BuiltIns.registry(), ctx).policy(), ticker);
    }

    private static String pick(Director director, String prompt) throws Exception {
        try (Dispatch d = director.dispatch(Requests.completion(prompt))) {
            return d.target().name();
        }
    }

    @Test
    void aPromptServedThroughReplicaAIsPulledHomeByReplicaB() throws Exception {
        RedisReplicas r = replicas("home");
        Director a = director(r.replica());
        Director b = director(r.replica());
        // one newcomer through B alone first: had each replica its own state, B's newcomer order would now differ
        // from A's, and B would send A's next newcomer elsewhere than A did
        pick(b, Requests.prose(99, 120));
        r.settle();
        Set<String> homes = new HashSet<>();
        for (int i = 0; i < 12; i++) {
            String prompt = Requests.prose(100 + i, 120);
            String home = pick(a, prompt);
            homes.add(home);
            r.settle();
            assertThat(pick(b, prompt)).as("prompt %d, first served on %s via A", i, home).isEqualTo(home);
            r.settle();
        }
        assertThat(homes).hasSize(3); // the prompts were spread, so B's agreement is not one pod's by default
    }

    @Test
    void newcomersAlternatingBetweenReplicasSpreadOverEveryPod() throws Exception {
        RedisReplicas r = replicas("spread");
        Director a = director(r.replica());
        Director b = director(r.replica());
        List<String> picks = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            picks.add(pick(i % 2 == 0 ? a : b, Requests.prose(200 + i, 120)));
            r.settle();
        }
        // each replica alone would send its first newcomer to the same pod; shared, three in a row go to three pods
        assertThat(Set.copyOf(picks.subList(0, 3))).hasSize(3);
        assertThat(Set.copyOf(picks.subList(3, 6))).hasSize(3);
    }

    @Test
    void aReplicaThatStartsLaterReplaysTheHistoryRedisKeeps() {
        RedisReplicas r = replicas("late");
        RedisLearnedState first = r.replica();
        ApproxIndex a = first.approxIndex("approx", 1000);
        NewcomerLru aOrder = first.newcomerLru("newcomers", 8);
        a.record("pod-1", new long[] {11, 12, 13}, 100);
        aOrder.received("pod-2");
        aOrder.received("pod-0");
        r.settle();

        RedisLearnedState late = r.replica();
        ApproxIndex c = late.approxIndex("approx", 1000);
        NewcomerLru cOrder = late.newcomerLru("newcomers", 8);
        List<EndpointState> all = Pools.states(Pools.of(3));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(c.match(new long[] {11, 12, 13}, all, 3)).containsExactly(0, 3, 0);
            assertThat(cOrder.leastRecentFirst()).containsExactly("pod-2", "pod-0");
        });
    }

    @Test
    void aPluginMadeAgainUnderItsNameAndBoundKeepsItsStateAcrossAReload() {
        RedisLearnedState state = replicas("reload").replica();
        ApproxIndex first = state.approxIndex("approx", 1000);
        first.record("pod-0", new long[] {1, 2}, 10);
        assertThat(state.approxIndex("approx", 1000)).isSameAs(first);
        assertThat(state.approxIndex("approx", 500)).isNotSameAs(first);
        assertThat(state.newcomerLru("newcomers", 4)).isSameAs(state.newcomerLru("newcomers", 4));
        assertThat(state.newcomerLru("other", 4)).isNotSameAs(state.newcomerLru("newcomers", 4));
    }

    @Test
    void everyStreamInRedisIsTrimmedAndExpires() {
        RedisReplicas r = replicas("bounds");
        RedisLearnedState state = r.replica();
        ApproxIndex index = state.approxIndex("approx", 100_000);
        NewcomerLru order = state.newcomerLru("newcomers", 8);
        long history = RedisLearnedState.approxHistory(100_000);
        assertThat(history).isEqualTo(RedisLearnedState.MIN_APPROX_HISTORY);
        int records = (int) history + 2000;
        for (int i = 0; i < records; i++) {
            index.record("pod-" + i % 3, new long[] {i, i + 1L}, 1000);
            order.received("pod-" + i % 3);
            if (i % 1000 == 999) {
                r.settle(); // faster than Redis takes them, the writer's queue would fill and drop (fallbacks)
            }
        }
        r.settle();
        assertThat(state.written()).isEqualTo(2L * records);
        String approxKey = "homing:bounds-" + pools + ":learned:approx:approx";
        String orderKey = "homing:bounds-" + pools + ":learned:newcomers:newcomers";
        // MAXLEN ~ trims whole nodes of the stream (100 entries each by default), so a little more may stay
        assertThat(inspect.xlen(approxKey)).isBetween(history, history + 200);
        assertThat(inspect.xlen(orderKey)).isBetween(32L, 32L + 200);
        assertThat(inspect.ttl(approxKey)).isBetween(1L, StreamAppends.TTL.toSeconds());
        assertThat(inspect.ttl(orderKey)).isBetween(1L, StreamAppends.TTL.toSeconds());
    }

    @Test
    void aReplicaThatStartsLateReplaysAboutWhatAFullCopyOfItsBoundHolds() {
        // the default bound, 1,000,000 blocks: the stream keeps 15,625 records, not a fixed 4,096
        assertThat(RedisLearnedState.approxHistory(1_000_000)).isEqualTo(15_625);
        assertThat(RedisLearnedState.approxHistory(Long.MAX_VALUE)).isEqualTo(RedisLearnedState.MAX_APPROX_HISTORY);
        RedisReplicas r = replicas("late-full");
        ApproxIndex early = r.replica().approxIndex("approx", 1_000_000);
        int records = 9000;
        for (int i = 0; i < records; i++) {
            early.record("pod-" + i % 3, new long[] {4L * i, 4L * i + 1, 4L * i + 2, 4L * i + 3}, 1_000_000);
            if (i % 1000 == 999) {
                r.settle();
            }
        }
        r.settle();
        assertThat(early.size()).isEqualTo(4L * records);
        // a replica of a rollout starts now: it replays the stream, and knows all the early one knows
        ApproxIndex late = r.replica().approxIndex("approx", 1_000_000);
        await().atMost(Duration.ofSeconds(20)).until(() -> late.size() >= early.size());
        assertThat(late.size()).isEqualTo(early.size());
        for (int p = 0; p < 3; p++) {
            assertThat(late.size("pod-" + p)).isEqualTo(early.size("pod-" + p));
        }
    }

    @Test
    void anotherReplicasRecordsForAPodNotInThisReplicasPoolAreDropped() {
        RedisReplicas r = replicas("gone");
        ApproxIndex a = r.replica().approxIndex("approx", 10_000);
        // B's pool: pod-0 and pod-1; pod-2 has gone here (or is not known yet), A still picks it (lagging)
        ApproxIndex b = r.replica(endpoint -> !endpoint.equals("pod-2")).approxIndex("approx", 10_000);
        for (int i = 0; i < 30; i++) {
            a.record("pod-" + i % 3, new long[] {2L * i, 2L * i + 1}, 1000);
        }
        r.settle();
        assertThat(a.size("pod-2")).isEqualTo(20);
        assertThat(b.size("pod-2")).as("no entry comes back for a pod gone here").isZero();
        assertThat(b.size("pod-0")).isEqualTo(20);
        assertThat(b.size("pod-1")).isEqualTo(20);
    }

    /**
     * The follower's blocking read on its own connection: a Redis that stalls for longer than the timeout of the calls
     * a decision waits on (250 ms) neither marks Redis down nor stops the following. (Jedis lifts the socket timeout
     * for a blocking command, so the pool's connection survived this too; what the follower's own connection adds is
     * a bound, block + margin, on a connection gone silent, which no test here can make without timing it.)
     */
    @Test
    void aRedisThatStallsLongerThanTheCallTimeoutIsNoOutageToTheFollower() throws Exception {
        RedisReplicas writers = replicas("stall");
        String pool = "stall-" + pools;
        // the router's own timeout for the calls a decision waits on; no probe runs, so only a call can mark it down
        SharedRedis redis = SharedRedis.create(server.url(), pool, Duration.ofMillis(250), Duration.ofHours(1));
        RedisLearnedState follower = new RedisLearnedState(redis);
        ApproxIndex copy = follower.approxIndex("approx", 10_000);
        follower.start();
        ApproxIndex writer = writers.replica().approxIndex("approx", 10_000);
        try (Jedis pauser = new Jedis("127.0.0.1", server.port())) {
            writer.record("pod-0", new long[] {1, 2}, 1000);
            await().atMost(Duration.ofSeconds(10)).until(() -> copy.size() == 2);
            // Redis holds every client's commands for 800 ms: the follower's next XREAD BLOCK 100 waits that long
            pauser.sendCommand(Protocol.Command.CLIENT, "PAUSE", "800", "ALL");
            Thread.sleep(1500);
            writer.record("pod-1", new long[] {3, 4}, 1000);
            await().atMost(Duration.ofSeconds(10)).until(() -> copy.size() == 4);
            assertThat(redis.up()).as("a slow blocking read is no outage").isTrue();
            assertThat(redis.fallbacks()).isZero();
        } finally {
            follower.close();
            redis.close();
        }
    }

    @Test
    void everyAppendThatRedisDidNotTakeCountsAsAFallback() throws Exception {
        int nothing;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            nothing = s.getLocalPort(); // closed below: nothing listens there
        }
        // no probe: Redis counts as up until a call fails, so the first batch is tried and fails whole
        SharedRedis redis = SharedRedis.create("redis://127.0.0.1:" + nothing, "nowhere", Duration.ofMillis(250),
                Duration.ofHours(1));
        RedisLearnedState state = new RedisLearnedState(redis);
        try {
            ApproxIndex index = state.approxIndex("approx", 10_000);
            state.start();
            for (int i = 0; i < 50; i++) {
                index.record("pod-" + i % 3, new long[] {i}, 1000);
            }
            await().atMost(Duration.ofSeconds(10)).until(state::idle);
            assertThat(redis.up()).isFalse();
            assertThat(state.written()).isZero();
            assertThat(redis.fallbacks()).as("one per append, however they were batched").isEqualTo(50);
        } finally {
            state.close();
            redis.close();
        }
    }
}
