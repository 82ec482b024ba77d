package dev.homing.router.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.protocol.metrics.MetricsText;
import dev.homing.protocol.metrics.PrometheusTextParser;
import dev.homing.protocol.metrics.Sample;
import dev.homing.router.config.ReloadOutcome;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ReloadMetricsTest {

    private final RouterMetrics metrics = new RouterMetrics("pool", new EndpointPool());

    private Map<String, Double> byResult(String name) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        metrics.write(out);
        MetricsText text = PrometheusTextParser.parse(out.toString(StandardCharsets.UTF_8));
        return text.samples(name).stream().collect(Collectors.toMap(s -> s.label("result"), Sample::value));
    }

    @Test
    void bothFilesCountAppliedAndRefusedChangesFromZero() throws Exception {
        assertThat(byResult("homing_config_reloads_total")).isEqualTo(Map.of("applied", 0.0, "refused", 0.0));
        assertThat(byResult("homing_endpoints_reloads_total")).isEqualTo(Map.of("applied", 0.0, "refused", 0.0));

        for (ReloadOutcome o : ReloadOutcome.values()) {
            metrics.configReloads().reloaded(o);
        }
        metrics.endpointsReloads().reloaded(ReloadOutcome.REFUSED);
        metrics.endpointsReloads().reloaded(ReloadOutcome.REFUSED);

        assertThat(byResult("homing_config_reloads_total")).isEqualTo(Map.of("applied", 1.0, "refused", 1.0));
        assertThat(byResult("homing_endpoints_reloads_total")).isEqualTo(Map.of("applied", 0.0, "refused", 2.0));
    }
}
