package dev.homing.router.outlier;

import static dev.homing.router.upstream.ScriptedPod.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.protocol.metrics.MetricsText;
import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import dev.homing.router.fixtures.HttpJson;
import dev.homing.router.upstream.ScriptedPod;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A pod that died (its port closed) beside a live one. With passive detection alone, the failures in a row that make
 * it an outlier cost a few retries, then it is no candidate; with the defaults (active checks, stale metrics left
 * out) it never was one: no client request is retried away from it at all.
 */
class EjectionIT {

    private static final String MODEL = "m";

    @Test
    void aDeadPodIsEjectedAfterAFewRetries() throws Exception {
        double retries = fortyRequestsBesideADeadPod(o -> {
            o.healthCheckInterval = Duration.ZERO; // passive detection alone
            o.metricsStaleness = Duration.ZERO;
        }, true);
        // each failure to reach it was retried on the live pod; after the third, it was no candidate
        assertThat(retries).isBetween(1.0, 3.0 * 2);
    }

    @Test
    void withTheDefaultsADeadPodCostsNoRetryAtAll() throws Exception {
        assertThat(fortyRequestsBesideADeadPod(o -> { }, false)).isZero();
    }

    /** @return the requests retried away from the dead pod */
    private static double fortyRequestsBesideADeadPod(Consumer<RouterOptions.Builder> change, boolean ejected)
            throws Exception {
        int dead;
        try (ServerSocket s = new ServerSocket(0)) {
            dead = s.getLocalPort(); // closed at once: nothing listens there
        }
        try (ScriptedPod live = new ScriptedPod((r, out, s) -> {
            if (ScriptedPod.answeredScrape(r, out, MODEL)) {
                return true;
            }
            write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
            return true;
        });
             RouterServer router = RouterServer.start(RouterOptions.defaults(List.of(
                     new Endpoint("live", "127.0.0.1", Integer.parseInt(live.address().split(":")[1])),
                     new Endpoint("dead", "127.0.0.1", dead))).with(o -> {
                         o.port = 0;
                         o.adminPort = 0;
                         change.accept(o);
                     }));
             HttpJson http = new HttpJson()) {
            await().atMost(Duration.ofSeconds(10)).until(() -> router.catalog().status("live").modelsKnown());
            String url = "http://127.0.0.1:" + router.port() + "/v1/completions";
            for (int i = 0; i < 40; i++) {
                HttpResponse<String> res = http.post(url, "{\"model\":\"" + MODEL + "\",\"prompt\":\"hello " + i
                        + "\",\"max_tokens\":2}");
                assertThat(res.statusCode()).as("request %d", i).isEqualTo(200);
                assertThat(res.headers().firstValue("x-homing-pod")).contains("live");
            }
            MetricsText m = http.metrics("http://127.0.0.1:" + router.adminPort() + "/metrics");
            if (ejected) {
                assertThat(value(m, "homing_endpoint_ejections_total", "dead")).isGreaterThanOrEqualTo(1);
            }
            assertThat(router.pool().snapshot().endpoints().stream().mapToInt(e -> e.inFlightRequests()).sum())
                    .isZero();
            return value(m, "homing_upstream_retries_total", "dead");
        }
    }

    private static double value(MetricsText m, String name, String pod) {
        return m.samples(name).stream().filter(s -> pod.equals(s.label("pod"))).mapToDouble(s -> s.value()).sum();
    }
}
