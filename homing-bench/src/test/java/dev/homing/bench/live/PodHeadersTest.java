package dev.homing.bench.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpHeaders;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodHeadersTest {

    private static HttpHeaders headers(Map<String, List<String>> m) {
        return HttpHeaders.of(m, (k, v) -> true);
    }

    @Test
    void homingsNameFirstThenTheGatewaysEndpointThenThePodsOwn() {
        assertThat(PodHeaders.of(headers(Map.of("x-homing-pod", List.of("pod-a"),
                "x-gateway-destination-endpoint", List.of("10.0.0.1:8000"), "x-inference-pod", List.of("sim-1")))))
                .isEqualTo("pod-a");
        assertThat(PodHeaders.of(headers(Map.of("X-Gateway-Destination-Endpoint", List.of("10.0.0.1:8000"),
                "x-inference-pod", List.of("sim-1"))))).isEqualTo("10.0.0.1:8000");
        assertThat(PodHeaders.of(headers(Map.of("x-inference-pod", List.of("sim-1"))))).isEqualTo("sim-1");
        assertThat(PodHeaders.of(headers(Map.of("x-homing-pod", List.of(" "), "x-inference-pod", List.of("sim-1")))))
                .isEqualTo("sim-1");
        assertThat(PodHeaders.of(headers(Map.of("server", List.of("nginx"))))).isNull();
    }
}
