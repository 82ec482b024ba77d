package dev.homing.router.admin;

import static dev.homing.router.fixtures.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.protocol.metrics.MetricsText;
import dev.homing.router.fixtures.TestCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class AdminIT {

    private static TestCluster cluster;

    @BeforeAll
    static void start() {
        cluster = TestCluster.start(2);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void healthAndReadiness() {
        assertThat(cluster.http().get(cluster.adminUrl("/healthz")).statusCode()).isEqualTo(200);
        assertThat(cluster.http().get(cluster.adminUrl("/readyz")).statusCode()).isEqualTo(200);
    }

    @Test
    void metricsUseLlmdNames() throws Exception {
        cluster.http().post(cluster.url("/v1/completions"), "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"hi\",\"max_tokens\":3}");
        MetricsText m = cluster.http().metrics(cluster.adminUrl("/metrics"));
        assertThat(m.sum("inference_objective_request_total")).isGreaterThanOrEqualTo(1);
        assertThat(m.samples("inference_objective_request_total").get(0).label("model_name")).isEqualTo(TestCluster.MODEL);
        assertThat(m.latest("inference_pool_ready_pods")).isEqualTo(2);
        assertThat(m.sum("inference_extension_scheduler_attempts_total")).isGreaterThanOrEqualTo(1);
        assertThat(m.samples("inference_pool_per_pod_queue_size")).hasSize(2);
        assertThat(m.sum("inference_extension_prefix_indexer_size")).isGreaterThanOrEqualTo(0);
        assertThat(m.samples("homing_endpoint_in_flight_requests")).hasSize(2);
        assertThat(m.latest("inference_extension_flow_control_pool_saturation")).isBetween(0.0, 1.0);
    }

    @Test
    void debugEndpointsShowsScrapedMetricsAndTheirAge() {
        JsonNode pods = json(cluster.http().get(cluster.adminUrl("/debug/endpoints")));
        assertThat(pods).hasSize(2);
        JsonNode p = pods.get(0);
        assertThat(p.path("name").asText()).isEqualTo("pod-0");
        assertThat(p.path("address").asText()).isEqualTo("127.0.0.1:" + cluster.pod(0).port());
        assertThat(p.path("metrics").path("blockSize").asInt()).isEqualTo(16);
        assertThat(p.path("metrics").path("numGpuBlocks").asLong()).isPositive();
        assertThat(p.path("metricsAgeMs").isNumber()).isTrue();
        assertThat(p.path("metricsAgeMs").asLong()).isBetween(0L, 5_000L);
        assertThat(p.path("models").get(0).asText()).isEqualTo(TestCluster.MODEL);
    }

    @Test
    void prometheusTargetsInHttpSdFormat() {
        JsonNode targets = json(cluster.http().get(cluster.adminUrl("/prometheus/targets")));
        assertThat(targets).hasSize(2);
        JsonNode t = targets.get(1);
        assertThat(t.path("targets").get(0).asText()).isEqualTo("127.0.0.1:" + cluster.pod(1).port());
        assertThat(t.path("labels").path("pod").asText()).isEqualTo("pod-1");
        assertThat(t.path("labels").path("model_name").asText()).isEqualTo(TestCluster.MODEL);
    }
}
