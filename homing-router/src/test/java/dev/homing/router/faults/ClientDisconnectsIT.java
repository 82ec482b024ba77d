package dev.homing.router.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.router.fixtures.SteadyLoad;
import dev.homing.router.fixtures.TestCluster;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Clients that go away at random points (in their request's head, in its body, while it waits for the pod, after the
 * response's head, mid-stream), beside a steady load of clients that stay: each leaver's load is released and its
 * request aborted at the pod, and the others see nothing of it.
 */
class ClientDisconnectsIT {

    private static final int LEAVERS = 150;

    @Test
    void clientsLeavingAnywhereLeaveNothingBehind() throws Exception {
        try (TestCluster cluster = TestCluster.start(2)) {
            SteadyLoad load = SteadyLoad.start(cluster.url("/v1/completions"), 4, 100_000,
                    SteadyLoad.completions(TestCluster.MODEL, 8, 16));
            SplittableRandom random = new SplittableRandom(21);
            int[] where = new int[5];
            for (int i = 0; i < LEAVERS; i++) {
                int point = random.nextInt(5);
                where[point]++;
                leaveAt(cluster.router().port(), point, i, random);
            }
            SteadyLoad.Tally t = SteadyLoad.Tally.of(load.stop(Duration.ofSeconds(60)));
            FaultReport.line("clients-disconnect", t, FaultReport.retried(cluster.http(), cluster.adminUrl(""), null),
                    String.format("leavers=%d (head %d, body %d, waiting %d, after head %d, mid-stream %d)", LEAVERS,
                            where[0], where[1], where[2], where[3], where[4]));
            assertThat(t.lost()).as("lost: %s", t.lostWhy()).isZero();
            assertThat(t.failed()).isZero();
            assertThat(t.cut()).isZero();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(cluster.routerInFlight()).isZero();
                assertThat(cluster.pods().stream().mapToInt(p -> p.stats().running() + p.stats().waiting()).sum())
                        .as("the leavers' requests were aborted at the pods").isZero();
            });
        }
    }

    /** One client that leaves: 0 in its head, 1 in its body, 2 waiting, 3 after its head, 4 mid-stream. */
    private static void leaveAt(int port, int point, int i, SplittableRandom random) throws Exception {
        String body = "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"leaver " + i + "\",\"max_tokens\":200,"
                + "\"ignore_eos\":true,\"stream\":" + (point >= 3) + "}";
        String request = "POST /v1/completions HTTP/1.1\r\nHost: r\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body;
        byte[] bytes = request.getBytes(StandardCharsets.UTF_8);
        int headEnd = request.indexOf("\r\n\r\n") + 4;
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            switch (point) {
                case 0 -> out.write(bytes, 0, 1 + random.nextInt(headEnd - 1));
                case 1 -> out.write(bytes, 0, headEnd + random.nextInt(body.length()));
                case 2 -> {
                    out.write(bytes);
                    Thread.sleep(random.nextInt(20));
                }
                case 3 -> {
                    out.write(bytes);
                    in.read(); // the head has begun
                }
                default -> {
                    out.write(bytes);
                    byte[] some = new byte[1 + random.nextInt(4096)];
                    in.readNBytes(some, 0, some.length);
                }
            }
            out.flush();
            if (random.nextBoolean()) {
                s.setSoLinger(true, 0); // a reset, not a polite close
            }
        }
    }
}
