package dev.homing.router.shared;

import static dev.homing.router.fixtures.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.router.RouterServer;
import dev.homing.router.fixtures.Decisions;
import dev.homing.router.fixtures.HttpJson;
import dev.homing.router.fixtures.PreciseReplicas;
import dev.homing.router.fixtures.RedisServerProcess;
import dev.homing.router.fixtures.SteadyLoad;
import dev.homing.sim.http.SimPod;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;

/**
 * Issue 16's fault suite: the Redis that two router replicas share ({@code --redis}: in-flight load, the precise index,
 * the learned state) goes away under steady load on both, and comes back some seconds later. Killed (SIGKILL), it
 * comes back empty; stopped (SIGSTOP), it keeps its data and its clients' connections hang, then it answers what
 * waited. Either way every request is answered (the replicas route on their local state meanwhile), the in-flight
 * counts, local and in Redis, are 0 at rest (nothing counted for requests that ended while Redis was away), and sharing
 * resumes: B counts A's requests again and sees, through Redis, what A's KV events say. Replica A subscribes to the
 * pods' events; B does not.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisOutageFaultIT {

    private static final String MODEL = "Qwen/Qwen2.5-0.5B-Instruct";
    private static final String POOL = "redis-fault-it";
    private static final int FAMILIES = 6;
    private static final int REQUESTS_PER_REPLICA = 150;
    private static final int CLIENTS_PER_REPLICA = 2;
    private static final Duration OUTAGE = Duration.ofSeconds(3);
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    static Path dir;
    private static PreciseReplicas replicas;
    private static RedisServerProcess redis;
    private static final List<SimPod> pods = new ArrayList<>();
    private static RouterServer a;
    private static RouterServer b;
    private static final HttpJson http = new HttpJson();

    @BeforeAll
    static void start() throws Exception {
        replicas = PreciseReplicas.start(dir, POOL, 10_000_000, o -> { });
        redis = replicas.redis;
        pods.addAll(replicas.pods);
        a = replicas.a;
        b = replicas.b;
    }

    @AfterAll
    static void stop() {
        if (replicas != null) {
            replicas.close();
        }
        http.close();
    }

    @Test
    @Order(1)
    void killedAndRestartedEmpty() throws Exception {
        outage("redis-killed-and-restarted", RedisServerProcess::kill, RedisServerProcess::restart, 0);
    }

    @Test
    @Order(2)
    void stoppedAndResumedWithItsData() throws Exception {
        outage("redis-stopped-and-resumed", RedisServerProcess::pause, RedisServerProcess::resume, 1);
    }

    /**
     * A pod whose cache empties while Redis is stopped (a reset here; a restart alike): Redis keeps what the pod held,
     * so unless the clear A applied meanwhile reaches it when it resumes, both replicas send the prompt home to a pod
     * that no longer has it.
     */
    @Test
    @Order(3)
    void aPodEmptiedWhileRedisWasStoppedIsNotClaimedOnceItResumes() throws Exception {
        String prompt = SteadyLoad.prefix(900);
        HttpResponse<String> placed = http.post(url(b, "/v1/completions"), "{\"model\":\"" + MODEL
                + "\",\"prompt\":\"" + prompt + "\",\"max_tokens\":4}");
        assertThat(placed.statusCode()).isEqualTo(200);
        String home = placed.headers().firstValue("x-homing-pod").orElseThrow();
        await().atMost(WAIT).until(() -> matched(b, prompt).getOrDefault(home, 0) > 0);

        redis.pause();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> redisUp(a) == 0 && redisUp(b) == 0);
        SimPod pod = pods.get(Integer.parseInt(home.substring("pod-".length())));
        await().atMost(WAIT).until(pod::resetPrefixCache);
        await().atMost(WAIT).until(() -> matched(a, prompt).getOrDefault(home, 0) == 0); // A's local state knows
        redis.resume();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> redisUp(a) == 1 && redisUp(b) == 1);

        await().atMost(WAIT).until(() -> matched(b, prompt).getOrDefault(home, 0) == 0
                && matched(a, prompt).getOrDefault(home, 0) == 0);
        assertThat(pod.stats().cachedBlocks()).isZero();
    }

    private void outage(String name, Consumer<RedisServerProcess> down, Consumer<RedisServerProcess> back, int round)
            throws Exception {
        double fallbacksBefore = metric(a, "homing_redis_fallbacks_total") + metric(b, "homing_redis_fallbacks_total");
        double retriesBefore = metric(a, "homing_upstream_retries_total") + metric(b, "homing_upstream_retries_total");
        int offset = round * 10_000;
        SteadyLoad viaA = SteadyLoad.start(url(a, "/v1/completions"), CLIENTS_PER_REPLICA, REQUESTS_PER_REPLICA,
                (i, stream) -> SteadyLoad.completions(MODEL, FAMILIES, 8).body(offset + 2 * i, stream));
        SteadyLoad viaB = SteadyLoad.start(url(b, "/v1/completions"), CLIENTS_PER_REPLICA, REQUESTS_PER_REPLICA,
                (i, stream) -> SteadyLoad.completions(MODEL, FAMILIES, 8).body(offset + 2 * i + 1, stream));
        viaA.awaitStarted(REQUESTS_PER_REPLICA / 3, WAIT);

        long gone = System.nanoTime();
        down.accept(redis);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> redisUp(a) == 0 && redisUp(b) == 0);
        long noticed = System.nanoTime();
        Thread.sleep(Math.max(0, OUTAGE.toMillis() - (noticed - gone) / 1_000_000));
        int startedDuring = viaA.started() + viaB.started();
        long returned = System.nanoTime();
        back.accept(redis);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> redisUp(a) == 1 && redisUp(b) == 1);
        long resumed = System.nanoTime();

        List<SteadyLoad.Sent> all = new ArrayList<>(viaA.finish(Duration.ofSeconds(60)));
        all.addAll(viaB.finish(Duration.ofSeconds(60)));
        long loadEnded = System.nanoTime();
        SteadyLoad.Tally tally = SteadyLoad.Tally.of(all);
        all.stream().filter(s -> s.outcome() != SteadyLoad.Outcome.ANSWERED).limit(5)
                .forEach(s -> System.out.println("  not answered: " + s));
        long sentDuring = all.stream().filter(s -> s.startNanos() - gone > 0 && s.startNanos() - resumed < 0).count();

        // At rest: nothing in flight, here or in Redis, and neither replica counts the other's requests.
        await().atMost(WAIT).until(() -> inFlight(a) == 0 && inFlight(b) == 0);
        long atRest;
        try (RedisClient look = RedisClient.create("127.0.0.1", redis.port())) {
            await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> redisCounts(look).isEmpty()
                    && sharedInFlight(a) == 0 && sharedInFlight(b) == 0 && look.smembers(key("load:replicas")).size() == 2);
            atRest = System.nanoTime();
            for (String replica : look.smembers(key("load:replicas"))) {
                assertThat(look.pttl(key("load:hb:" + replica))).as("a heartbeat expires").isPositive();
                long counts = look.pttl(key("load:n:" + replica));
                assertThat(counts == -2 || counts > 0).as("a replica's counts are absent or expire").isTrue();
            }

            // Sharing resumes: a long request through A is counted by B.
            HttpResponse<InputStream> longOne = http.postStreaming(url(a, "/v1/completions"), "{\"model\":\"" + MODEL
                    + "\",\"prompt\":\"after the outage, number " + round + "\",\"max_tokens\":1500,"
                    + "\"ignore_eos\":true,\"stream\":true}");
            try (InputStream in = longOne.body()) {
                assertThat(longOne.statusCode()).isEqualTo(200);
                await().atMost(WAIT).until(() -> sharedInFlight(b) == 1);
            }
            await().atMost(WAIT).until(() -> sharedInFlight(b) == 0 && redisCounts(look).isEmpty());
        }
        // And the precise index: a new prompt placed through B, which hears no events, is known to B through Redis
        // once the home pod's events reach A.
        String prompt = SteadyLoad.prefix(500 + round);
        HttpResponse<String> placed = http.post(url(b, "/v1/completions"), "{\"model\":\"" + MODEL
                + "\",\"prompt\":\"" + prompt + "\",\"max_tokens\":4}");
        assertThat(placed.statusCode()).isEqualTo(200);
        String home = placed.headers().firstValue("x-homing-pod").orElseThrow();
        await().atMost(WAIT).until(() -> matched(b, prompt).getOrDefault(home, 0) > 0);
        long shared = System.nanoTime();

        double fallbacks = metric(a, "homing_redis_fallbacks_total") + metric(b, "homing_redis_fallbacks_total")
                - fallbacksBefore;
        long retried = Math.round(metric(a, "homing_upstream_retries_total") + metric(b, "homing_upstream_retries_total")
                - retriesBefore);
        System.out.println("FAULT " + name + ": " + tally.line(retried)
                + " ejections=" + Math.round(metric(a, "homing_endpoint_ejections_total")
                        + metric(b, "homing_endpoint_ejections_total")) + " (eject/readmit: none)"
                + " outage=" + seconds(gone, returned) + " down_noticed_after=" + seconds(gone, noticed)
                + " up_again_after=" + seconds(returned, resumed) + " (both replicas)"
                + " requests_sent_while_down=" + sentDuring + " (" + startedDuring + " started by then)"
                + " fallbacks=" + Math.round(fallbacks)
                + " load_ended_after_resume=" + seconds(resumed, loadEnded)
                + " in_flight_0{a,b,redis,shared}_after_load_end=" + seconds(loadEnded, atRest)
                + " shared_load_and_index_checked_after_load_end=" + seconds(loadEnded, shared));

        assertThat(tally.lost()).as("requests that got no answer at all").isZero();
        assertThat(tally.answered()).as("Redis away fails no request").isEqualTo(2 * REQUESTS_PER_REPLICA);
        assertThat(sentDuring).as("the load ran through the outage").isPositive();
        assertThat(fallbacks).as("served locally while Redis was away").isPositive();
        assertThat(inFlight(a) + inFlight(b)).isZero();
    }

    /** Every in-flight count still in Redis, by replica and field (zeros are absent). */
    private static Map<String, String> redisCounts(RedisClient look) {
        Map<String, String> out = new TreeMap<>();
        for (String replica : look.smembers(key("load:replicas"))) {
            look.hgetAll(key("load:n:" + replica)).forEach((f, v) -> out.put(replica + "/" + f, v));
        }
        return out;
    }

    private static String key(String name) {
        return "homing:" + POOL + ":" + name;
    }

    private static String seconds(long from, long to) {
        return String.format(Locale.ROOT, "%.2fs", (to - from) / 1e9);
    }

    private static int inFlight(RouterServer r) {
        return r.pool().snapshot().endpoints().stream().mapToInt(e -> e.inFlightRequests()).sum();
    }

    private static String url(RouterServer r, String path) {
        return "http://127.0.0.1:" + r.port() + path;
    }

    private static double metric(RouterServer r, String name) {
        return http.metrics("http://127.0.0.1:" + r.adminPort() + "/metrics").sum(name);
    }

    private static double redisUp(RouterServer r) {
        return metric(r, "homing_redis_up");
    }

    /** Requests the other replicas have in flight, as this one counts them. */
    private static int sharedInFlight(RouterServer r) {
        return (int) metric(r, "homing_shared_inflight_requests");
    }

    private static Map<String, Integer> matched(RouterServer r, String prompt) {
        return Decisions.matchedBlocks(json(http.post("http://127.0.0.1:" + r.adminPort() + "/debug/schedule",
                "{\"model\":\"" + MODEL + "\",\"prompt\":\"" + prompt + "\",\"max_tokens\":4}")));
    }
}
