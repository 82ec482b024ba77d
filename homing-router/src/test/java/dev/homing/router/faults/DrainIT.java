package dev.homing.router.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.homing.router.RouterServer;
import dev.homing.router.fixtures.TestCluster;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Graceful shutdown: a router told to stop (SIGTERM closes it) says it is not ready at once, takes no new connection,
 * and lets every stream under way finish, up to the drain timeout; then it closes. Past the deadline, what is left is
 * cut, and nothing stays counted.
 */
class DrainIT {

    private static final int STREAMS = 20;

    /** Streams of {@code tokens} tokens each (the simulated CPU pod decodes one per 20 ms or so), opened at once. */
    private static List<CompletableFuture<String>> openStreams(TestCluster cluster, HttpClient client, int tokens) {
        List<CompletableFuture<String>> ends = new ArrayList<>();
        for (int i = 0; i < STREAMS; i++) {
            String body = "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"drain " + i + "\",\"max_tokens\":"
                    + tokens + ",\"ignore_eos\":true,\"stream\":true}";
            ends.add(client.sendAsync(HttpRequest.newBuilder(URI.create(cluster.url("/v1/completions")))
                    .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(), HttpResponse.BodyHandlers.ofInputStream()).thenApply(res -> lastLine(res.body())));
        }
        return ends;
    }

    /** The stream's last data line, or "cut" when it ended without one. */
    private static String lastLine(InputStream in) {
        String last = "cut";
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("data: ")) {
                    last = line;
                }
            }
        } catch (java.io.IOException e) {
            return "cut";
        }
        return last;
    }

    private static void awaitStreaming(TestCluster cluster) {
        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.routerInFlight() == STREAMS
                && cluster.pods().stream().mapToInt(p -> p.stats().running()).sum() == STREAMS);
    }

    @Test
    void openStreamsFinishWhileTheRouterDrainsAndNoNewConnectionIsTaken() throws Exception {
        TestCluster cluster = TestCluster.start(2);
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            RouterServer router = cluster.router();
            List<CompletableFuture<String>> ends = openStreams(cluster, client, 100); // about 2 s each
            awaitStreaming(cluster);
            long t0 = System.nanoTime();
            Thread closing = Thread.ofVirtual().start(router::close);
            await().atMost(Duration.ofSeconds(5)).until(() -> router.health().notReady() != null);
            assertThat(cluster.http().get(cluster.adminUrl("/readyz")).statusCode())
                    .as("the admin port answers through the drain: not ready").isEqualTo(503);
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThatThrownBy(
                    () -> new Socket("127.0.0.1", router.port()).close()).isInstanceOf(ConnectException.class));
            assertThat(closing.isAlive()).as("still draining while streams run").isTrue();
            for (CompletableFuture<String> end : ends) {
                assertThat(end.get(30, java.util.concurrent.TimeUnit.SECONDS)).as("every stream ran to its end")
                        .isEqualTo("data: [DONE]");
            }
            closing.join(Duration.ofSeconds(30));
            assertThat(closing.isAlive()).isFalse();
            System.out.printf("FAULT drain: %d streams open at SIGTERM, all finished; closed after %.0f ms%n", STREAMS,
                    (System.nanoTime() - t0) / 1e6);
            assertThat(cluster.routerInFlight()).isZero();
        } finally {
            cluster.close();
        }
    }

    @Test
    void pastTheDrainTimeoutWhatIsLeftIsCutAndReleased() throws Exception {
        TestCluster cluster = TestCluster.start(2, b -> b, o -> o.with(x -> x.drainTimeout = Duration.ofSeconds(1)));
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            List<CompletableFuture<String>> ends = openStreams(cluster, client, 2000); // about 40 s each
            awaitStreaming(cluster);
            long t0 = System.nanoTime();
            cluster.router().close();
            double closedMs = (System.nanoTime() - t0) / 1e6;
            AtomicInteger cut = new AtomicInteger();
            for (CompletableFuture<String> end : ends) {
                if (!end.get(30, java.util.concurrent.TimeUnit.SECONDS).equals("data: [DONE]")) {
                    cut.incrementAndGet();
                }
            }
            assertThat(cut.get()).isEqualTo(STREAMS);
            assertThat(closedMs).as("closed at the deadline, not when the streams would have ended")
                    .isLessThan(20_000);
            assertThat(cluster.routerInFlight()).isZero();
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    cluster.pods().stream().mapToInt(p -> p.stats().running()).sum() == 0);
        } finally {
            cluster.close();
        }
    }
}
