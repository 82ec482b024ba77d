package dev.homing.router.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.homing.core.config.ConfigException;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import dev.homing.router.fixtures.AtomicWrite;
import dev.homing.router.fixtures.HttpJson;
import dev.homing.router.fixtures.TestCluster;
import dev.homing.sim.engine.Preset;
import dev.homing.sim.http.SimPod;
import dev.homing.sim.http.SimPodConfig;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A router whose endpoints come from a file: read at start, followed as it changes, with real pods behind it. */
class EndpointsFileIT {

    private static final String MODEL = TestCluster.MODEL;

    @TempDir
    Path dir;

    @Test
    void podsJoinAndLeaveAsTheFileChangesAndABrokenChangeKeepsThem() throws Exception {
        try (SimPod a = pod("a"); SimPod b = pod("b"); HttpJson http = new HttpJson()) {
            Path file = AtomicWrite.replace(dir.resolve("endpoints.yaml"), entries(a));
            try (RouterServer router = RouterServer.start(RouterOptions.defaults(List.of()).with(o -> {
                o.port = 0;
                o.adminPort = 0;
                o.endpointsFile = file;
                o.configPollInterval = Duration.ofMillis(100);
            }))) {
                assertThat(names(router)).containsExactly("a");
                assertThat(router.pool().snapshot().endpoints().getFirst().endpoint().label("llm-d.ai/role"))
                        .isEqualTo("decode");
                awaitServing(router);
                assertThat(servedBy(http, router)).isEqualTo("a");

                AtomicWrite.replace(file, entries(a, b));
                await().atMost(Duration.ofSeconds(10)).until(() -> names(router).equals(List.of("a", "b")));
                AtomicWrite.replace(file, entries(b));
                await().atMost(Duration.ofSeconds(10)).until(() -> names(router).equals(List.of("b")));
                awaitServing(router);
                assertThat(servedBy(http, router)).isEqualTo("b");

                assertThat(reloads(http, router, "applied")).isEqualTo(2);
                AtomicWrite.replace(file, entries(b) + "  - {name: b, address: \"127.0.0.1:1\"}\n");
                await().atMost(Duration.ofSeconds(10)).until(() -> reloads(http, router, "refused") == 1);
                assertThat(names(router)).containsExactly("b");
                assertThat(servedBy(http, router)).isEqualTo("b");
            }
        }
    }

    @Test
    void aBrokenFileStopsStartUp() throws Exception {
        Path file = AtomicWrite.replace(dir.resolve("endpoints.yaml"), "endpoints:\n  - {name: a, port: 80}\n");
        assertThatThrownBy(() -> RouterServer.start(RouterOptions.defaults(List.of()).with(o -> {
            o.port = 0;
            o.adminPort = 0;
            o.endpointsFile = file;
        }))).isInstanceOf(ConfigException.class).hasMessageStartingWith(file + ":2: endpoints[0] needs 'address");
    }

    private static SimPod pod(String name) {
        return SimPod.start(SimPodConfig.builder().preset(Preset.byName("cpu-qwen2.5-0.5b")).model(MODEL)
                .servedModelNames(List.of(MODEL)).podName(name).seed(name.hashCode()).build());
    }

    private static String entries(SimPod... pods) {
        StringBuilder b = new StringBuilder("endpoints:\n");
        for (SimPod p : pods) {
            b.append("  - name: ").append(p.config().podName()).append('\n')
                    .append("    host: 127.0.0.1\n")
                    .append("    port: ").append(p.port()).append('\n')
                    .append("    labels: {llm-d.ai/role: decode}\n");
        }
        return b.toString();
    }

    private static double reloads(HttpJson http, RouterServer router, String result) {
        return http.metrics("http://127.0.0.1:" + router.adminPort() + "/metrics")
                .samples("homing_endpoints_reloads_total").stream().filter(s -> result.equals(s.label("result")))
                .mapToDouble(s -> s.value()).sum();
    }

    private static List<String> names(RouterServer router) {
        return router.pool().snapshot().endpoints().stream().map(EndpointState::name).toList();
    }

    private static void awaitServing(RouterServer router) {
        await().atMost(Duration.ofSeconds(10)).until(() -> router.pool().snapshot().endpoints().stream()
                .allMatch(e -> e.metrics().known() && router.catalog().status(e.name()).modelsKnown()));
    }

    private static String servedBy(HttpJson http, RouterServer router) {
        HttpResponse<String> res = http.post("http://127.0.0.1:" + router.port() + "/v1/completions",
                "{\"model\":\"" + MODEL + "\",\"prompt\":\"Hello\",\"max_tokens\":2}");
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        return res.headers().firstValue("x-homing-pod").orElseThrow();
    }
}
