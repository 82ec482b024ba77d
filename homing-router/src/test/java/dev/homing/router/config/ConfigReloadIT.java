package dev.homing.router.config;

import static dev.homing.router.fixtures.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.router.fixtures.AtomicWrite;
import dev.homing.router.fixtures.TestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A changed config is applied while serving, without dropping requests; a broken one is refused. */
class ConfigReloadIT {

    private static final String CONFIG = """
            apiVersion: llm-d.ai/v1alpha1
            kind: EndpointPickerConfig
            plugins:
            - type: prefix-cache-scorer
            - type: queue-scorer
            schedulingProfiles:
            - name: default
              plugins:
              - pluginRef: prefix-cache-scorer
                weight: %d
              - pluginRef: queue-scorer
                weight: 1
            """;

    @TempDir
    Path dir;

    private static double prefixWeight(TestCluster c) {
        JsonNode d = json(c.http().post(c.adminUrl("/debug/schedule"),
                "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"hello\"}"));
        return d.path("profiles").get(0).path("candidates").get(0).path("scores").path("prefix-cache-scorer")
                .path("weight").asDouble();
    }

    @Test
    void reloadAppliesGoodChangesRefusesBrokenOnesAndDropsNothing() throws Exception {
        Path file = dir.resolve("epp.yaml");
        AtomicWrite.replace(file, CONFIG.formatted(3));
        try (TestCluster c = TestCluster.start(2, b -> b, o -> o.with(x -> {
            x.configFile = file;
            x.configPollInterval = Duration.ofMillis(100);
        }))) {
            assertThat(prefixWeight(c)).isEqualTo(3);
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicInteger failures = new AtomicInteger();
            AtomicInteger served = new AtomicInteger();
            try (ExecutorService load = Executors.newVirtualThreadPerTaskExecutor()) {
                Future<?> traffic = load.submit(() -> {
                    while (running.get()) {
                        int status = c.http().post(c.url("/v1/completions"),
                                "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"keep going\",\"max_tokens\":2}").statusCode();
                        (status == 200 ? served : failures).incrementAndGet();
                    }
                });
                AtomicWrite.replace(file, CONFIG.formatted(7));
                await().atMost(Duration.ofSeconds(10)).until(() -> prefixWeight(c) == 7);

                AtomicWrite.replace(file, CONFIG.formatted(9).replace("queue-scorer\n    weight", "queue-scorr\n    weight"));
                await().atMost(Duration.ofSeconds(10)).until(() ->
                        c.http().metrics(c.adminUrl("/metrics")).samples("homing_config_reloads_total").stream()
                                .anyMatch(s -> "refused".equals(s.label("result")) && s.value() >= 1));
                assertThat(prefixWeight(c)).as("the running config stays").isEqualTo(7);
                running.set(false);
                traffic.get();
            }
            assertThat(failures.get()).isZero();
            assertThat(served.get()).isPositive();
        }
    }
}
