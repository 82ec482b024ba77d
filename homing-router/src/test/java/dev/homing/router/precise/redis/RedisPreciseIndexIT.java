package dev.homing.router.precise.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.precise.BlockKeys;
import dev.homing.core.precise.PreciseIndex;
import dev.homing.core.precise.PreciseIndexContract;
import dev.homing.protocol.kvevents.AllBlocksCleared;
import dev.homing.protocol.kvevents.BlockRemoved;
import dev.homing.protocol.kvevents.EventBlockHash;
import dev.homing.router.fixtures.RedisServerProcess;
import dev.homing.router.shared.SharedRedis;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The Redis-backed index against a real redis-server: every scenario of the in-memory index's contract gives the same
 * answers, the bound holds in Redis, and two indexes on one Redis (two replicas) see each other's writes.
 */
class RedisPreciseIndexIT extends PreciseIndexContract {

    private static final AtomicInteger POOLS = new AtomicInteger();
    private static RedisServerProcess server;
    private static RedisClient inspect;

    private final FakeTicker ticker = new FakeTicker();
    private final Clock clock = Clock.fixed(Instant.parse("2026-11-30T12:00:00Z"), ZoneOffset.UTC);
    private final List<SharedRedis> opened = new ArrayList<>();

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
    void closeClients() {
        opened.forEach(SharedRedis::close);
    }

    /** Each contract scenario gets a pool of its own on the shared server, so they cannot see one another. */
    @Override
    protected PreciseIndex newIndex(long maxEntries, int blockSize, long seed, Map<String, Double> tierWeights) {
        return open(server.url(), "contract-" + POOLS.incrementAndGet(), maxEntries, tierWeights);
    }

    private RedisPreciseIndex open(String url, String pool, long maxEntries, Map<String, Double> tiers) {
        SharedRedis redis = SharedRedis.create(url, pool, Duration.ofSeconds(2), Duration.ofMillis(50));
        opened.add(redis);
        // Background writes run inline, so that scenarios are deterministic; the router queues them (RedisWriter).
        return new RedisPreciseIndex(redis, Runnable::run, ticker, clock, Duration.ofHours(1), maxEntries, BS, 7, tiers);
    }

    private static String ns(String pool) {
        return "homing:" + pool + ":precise:" + BS + ":" + Long.toHexString(7) + ":";
    }

    private static Set<String> keys(String prefix) {
        Set<String> found = new TreeSet<>();
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            ScanResult<String> page = inspect.scan(cursor, new ScanParams().match(prefix + "*").count(1000));
            found.addAll(page.getResult());
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        return found;
    }

    private int[] matchedBy(PreciseIndex idx, int[] prompt) {
        return idx.match(BlockKeys.of(idx.root("m", null), prompt, BS, 100), all, 3, 0).matchedBlocks();
    }

    @Test
    void twoReplicasOnOneRedisSeeEachOthersWrites() {
        RedisPreciseIndex a = open(server.url(), "two", 1000, PreciseIndex.DEFAULT_TIER_WEIGHTS);
        RedisPreciseIndex b = open(server.url(), "two", 1000, PreciseIndex.DEFAULT_TIER_WEIGHTS);
        int[] prompt = tokens(20, 300);

        a.apply("pod-1", List.of(stored(prompt, 0, 3, 100)));
        assertThat(matchedBy(b, prompt)).containsExactly(0, 3, 0);

        // b takes over pod-1's events mid-stream: the parent it never saw resolves through Redis
        assertThat(b.apply("pod-1", List.of(stored(prompt, 3, 5, 100)))).isZero();
        assertThat(b.stats().unresolvedEvents()).isZero();
        assertThat(matchedBy(a, prompt)).containsExactly(0, 5, 0);
        assertThat(matchedBy(b, prompt)).containsExactly(0, 5, 0);

        // a pick's speculative hold made on b is seen by a
        int[] other = tokens(8, 900);
        b.holdSpeculatively("pod-2", BlockKeys.of(b.root("m", null), other, BS, 10), ticker.nanos() + 5_000_000_000L);
        assertThat(a.match(BlockKeys.of(a.root("m", null), other, BS, 10), all, 3, ticker.nanos()).matchedBlocks())
                .containsExactly(0, 0, 2);

        // a removal applied by b resolves through the engine map a wrote
        b.apply("pod-1", List.of(BlockRemoved.gpu(EventBlockHash.ofUint64(102))));
        assertThat(matchedBy(a, prompt)).containsExactly(0, 2, 0);

        a.removePod("pod-1");
        assertThat(matchedBy(b, prompt)).containsExactly(0, 0, 0);
        assertThat(b.size("pod-1")).isZero();
    }

    @Test
    void theBoundHoldsOverAllReplicasAndRemovalsLeaveNothingBehind() {
        String pool = "bounded";
        String ns = ns(pool);
        RedisPreciseIndex a = open(server.url(), pool, 20, PreciseIndex.DEFAULT_TIER_WEIGHTS);
        RedisPreciseIndex b = open(server.url(), pool, 20, PreciseIndex.DEFAULT_TIER_WEIGHTS);
        int[] first = tokens(60, 0);
        int[] second = tokens(60, 5000);
        a.apply("pod-0", List.of(stored(first, 0, 15, 1000)));
        b.apply("pod-1", List.of(stored(second, 0, 15, 2000)));

        assertThat(inspect.zcard(ns + "lru")).isEqualTo(20);
        assertThat(a.size()).isEqualTo(20);
        assertThat(inspect.scard(ns + "p:pod-0") + inspect.scard(ns + "p:pod-1")).isEqualTo(20);
        long fields = keys(ns + "b:").stream().mapToLong(inspect::hlen).sum();
        assertThat(fields).isEqualTo(20);
        // the least recently stored went: pod-0's tail blocks; its head still matches
        assertThat(matchedBy(b, first)).containsExactly(5, 0, 0);
        assertThat(matchedBy(a, second)).containsExactly(0, 15, 0);
        // engine maps forget a pod that falls silent
        assertThat(inspect.pttl(ns + "e:pod-0")).isBetween(1L, Duration.ofHours(1).toMillis());

        a.removePod("pod-0");
        b.clear("pod-1");
        assertThat(keys(ns)).containsExactly(ns + "seq");
    }

    @Test
    void lapsedSpeculativeHoldingsAreSweptFromRedisByLookups() {
        String ns = ns("lapsing");
        RedisPreciseIndex idx = open(server.url(), "lapsing", 1000, PreciseIndex.DEFAULT_TIER_WEIGHTS);
        int[] prompt = tokens(12, 70);
        long[] keys = BlockKeys.of(idx.root("m", null), prompt, BS, 10);
        long now = ticker.nanos();
        idx.holdSpeculatively("pod-0", keys, now + 2_000_000_000L);
        assertThat(inspect.zcard(ns + "s")).isEqualTo(3);
        assertThat(idx.match(keys, all, 3, now + 1_000_000_000L).matchedBlocks()).containsExactly(3, 0, 0);
        assertThat(idx.match(keys, all, 3, now + 3_000_000_000L).matchedBlocks()).containsExactly(0, 0, 0);
        assertThat(keys(ns)).containsExactly(ns + "seq");
    }

    @Test
    void withRedisUnreachableTheIndexAnswersFromLocalStateAndCountsIt() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        RedisPreciseIndex idx = open("redis://127.0.0.1:" + closedPort, "nowhere", 1000,
                PreciseIndex.DEFAULT_TIER_WEIGHTS);
        SharedRedis redis = opened.getLast();
        int[] prompt = tokens(12, 0);
        assertThat(idx.apply("pod-2", List.of(stored(prompt, 0, 3, 10)))).isZero();
        assertThat(redis.up()).isFalse();
        assertThat(matchedBy(idx, prompt)).containsExactly(0, 0, 3);
        assertThat(idx.size()).isEqualTo(3);
        assertThat(redis.fallbacks()).as("the event batch and the lookup").isEqualTo(2);
    }

    @Test
    void whatWasWrittenDuringAnOutageIsSentWhenRedisReturnsAndWhatItHeldBeforeARestartIsLost() {
        try (RedisServerProcess own = RedisServerProcess.start()) {
            RedisPreciseIndex writer = open(own.url(), "outage", 1000, PreciseIndex.DEFAULT_TIER_WEIGHTS);
            RedisPreciseIndex reader = open(own.url(), "outage", 1000, PreciseIndex.DEFAULT_TIER_WEIGHTS);
            SharedRedis writerRedis = opened.get(opened.size() - 2);
            writerRedis.start();
            int[] before = tokens(8, 0);
            int[] during = tokens(8, 100);
            int[] after = tokens(8, 200);
            writer.apply("pod-0", List.of(stored(before, 0, 2, 10)));

            own.kill();
            writer.apply("pod-1", List.of(stored(during, 0, 2, 20)));
            assertThat(writerRedis.up()).isFalse();
            assertThat(matchedBy(writer, during)).as("local state serves meanwhile").containsExactly(0, 2, 0);
            assertThat(writer.backlogged()).as("the write waits for Redis").isPositive();

            own.restart();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(writerRedis::up);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> Arrays.equals(matchedBy(reader, during), new int[] {0, 2, 0}));
            assertThat(writer.backlogged()).isZero();
            writer.apply("pod-2", List.of(stored(after, 0, 2, 30)));
            assertThat(matchedBy(reader, after)).containsExactly(0, 0, 2);
            assertThat(matchedBy(reader, before)).as("lost with the restart (no persistence)").containsExactly(0, 0, 0);
            assertThat(matchedBy(writer, during)).as("Redis answers again, for the writer too").containsExactly(0, 2, 0);
            try (RedisClient look = RedisClient.create("127.0.0.1", own.port())) {
                assertThat(look.zcard(ns("outage") + "lru")).isEqualTo(4);
            }
        }
    }

    @Test
    void aClearMissedWhileRedisWasStoppedReachesItWhenItResumesSoNoReplicaClaimsTheBlocksGone() {
        try (RedisServerProcess own = RedisServerProcess.start()) {
            RedisPreciseIndex writer = open(own.url(), "stopped", 1000, PreciseIndex.DEFAULT_TIER_WEIGHTS);
            RedisPreciseIndex reader = open(own.url(), "stopped", 1000, PreciseIndex.DEFAULT_TIER_WEIGHTS);
            SharedRedis writerRedis = opened.get(opened.size() - 2);
            writerRedis.start();
            int[] prompt = tokens(8, 0);
            int[] other = tokens(8, 300);
            writer.apply("pod-0", List.of(stored(prompt, 0, 2, 10)));
            writer.apply("pod-1", List.of(stored(other, 0, 2, 20)));
            assertThat(matchedBy(reader, prompt)).containsExactly(2, 0, 0);

            own.pause(); // it keeps its data; calls to it time out
            writer.apply("pod-0", List.of(AllBlocksCleared.INSTANCE)); // the pod restarted, say
            writer.apply("pod-1", List.of(BlockRemoved.gpu(EventBlockHash.ofUint64(21))));
            assertThat(writerRedis.up()).isFalse();
            assertThat(matchedBy(writer, prompt)).as("local state knows").containsExactly(0, 0, 0);

            own.resume();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(writerRedis::up);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> writer.backlogged() == 0);
            assertThat(matchedBy(reader, prompt)).as("the clear reached Redis").containsExactly(0, 0, 0);
            assertThat(matchedBy(reader, other)).as("and the removal").containsExactly(0, 1, 0);
            assertThat(matchedBy(writer, prompt)).containsExactly(0, 0, 0);
        }
    }
}
