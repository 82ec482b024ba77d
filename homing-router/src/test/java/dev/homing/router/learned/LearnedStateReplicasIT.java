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
        int records = (int) RedisLearnedState.APPROX_HISTORY + 2000;
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
        assertThat(inspect.xlen(approxKey)).isBetween(RedisLearnedState.APPROX_HISTORY,
                RedisLearnedState.APPROX_HISTORY + 200);
        assertThat(inspect.xlen(orderKey)).isBetween(32L, 32L + 200);
        assertThat(inspect.ttl(approxKey)).isBetween(1L, StreamAppends.TTL.toSeconds());
        assertThat(inspect.ttl(orderKey)).isBetween(1L, StreamAppends.TTL.toSeconds());
    }
}
