package dev.homing.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.homing.core.config.ConfigException;
import dev.homing.core.config.DefaultConfig;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.router.fixtures.RedisServerProcess;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A router that fails to start leaves nothing running and says why: the threads its parts started (its own, the
 * Redis pool's, the HTTP clients') are gone, and the error is the one that stopped it, not its cleanup's. With a real
 * redis-server and precise routing, so that every part that runs or holds resources is built.
 */
class FailedStartIT {

    /** Threads of the router's parts: its own, the JDK HttpClients' (token source, scraper), the Redis pool's. */
    private static final List<String> PARTS = List.of("homing-", "HttpClient-", "commons-pool-");

    private static RedisServerProcess redis;

    @TempDir
    Path dir;

    @BeforeAll
    static void startRedis() {
        redis = RedisServerProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    private static RouterOptions options(UnaryOperator<RouterOptions> change) {
        // The pod is not there: nothing here gets as far as a request.
        RouterOptions o = RouterOptions.defaults(List.of(new Endpoint("pod-0", "127.0.0.1", 9, Map.of())))
                .with(x -> {
                    x.port = 0;
                    x.adminPort = 0;
                    x.redisUrl = redis.url();
                    x.poolName = "failed-start-it";
                });
        return change.apply(o);
    }

    @Test
    void anApiPortInUseStopsThePreciseRouterWithThatErrorAndLeavesNothingRunning() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            Set<Thread> before = partThreads();

            assertThatThrownBy(() -> RouterServer.start(options(o -> o.with(x -> {
                x.port = port;
                x.precise = true;
            })))).isInstanceOf(IllegalStateException.class)
                    .hasMessage("the router's API port could not listen on 127.0.0.1:" + port + " (in use?)");

            awaitNoneLeftSince(before);
        }
    }

    @Test
    void aPreciseConfigThatCannotLoadStopsTheRouterWithItsFileAndLineAndLeavesNothingRunning() throws Exception {
        String precise = DefaultConfig.preciseText();
        String good = "- type: queue-depth-scorer\n";
        assertThat(precise).contains(good);
        int line = (int) precise.substring(0, precise.indexOf(good)).lines().count() + 1;
        Path file = Files.writeString(dir.resolve("epp.yaml"), precise.replace(good, "- type: queue-scorr\n"));
        Set<Thread> before = partThreads();

        assertThatThrownBy(() -> RouterServer.start(options(o -> o.with(x -> x.configFile = file))))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(file + ":" + line + ": ")
                .hasMessageContaining("queue-scorr");

        awaitNoneLeftSince(before);
    }

    /** Threads of the router's parts alive now. */
    private static Set<Thread> partThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> PARTS.stream().anyMatch(t.getName()::startsWith))
                .collect(Collectors.toSet());
    }

    /** Some parts' threads end a moment after their close returns (an executor's, the HttpClient's selector). */
    private static void awaitNoneLeftSince(Set<Thread> before) {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(partThreads().stream()
                .filter(t -> !before.contains(t)).map(Thread::getName).sorted())
                .as("threads a failed start left running").isEmpty());
    }
}
