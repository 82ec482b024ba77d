package dev.homing.router.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.EndpointPool;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Flow control's metrics keep a bounded number of series whatever fairness ids clients invent. */
class FlowMetricsTest {

    @Test
    void fairnessIdsPastTheBoundAreCountedAsOther() throws Exception {
        RouterMetrics metrics = new RouterMetrics("pool", new EndpointPool());
        FlowMetrics flow = metrics.flowControl(List::of);
        for (int i = 0; i < FlowMetrics.MAX_FAIRNESS_IDS + 500; i++) {
            flow.enqueued("tenant-" + i, 0, "Queued", 1_000);
        }
        flow.enqueued("tenant-7", 0, "Queued", 1_000); // one seen early keeps its own series
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        metrics.write(out);
        String text = out.toString(StandardCharsets.UTF_8);
        long series = text.lines().filter(l -> l.startsWith(
                "inference_extension_flow_control_request_enqueue_duration_seconds_count{")).count();
        assertThat(series).isEqualTo(FlowMetrics.MAX_FAIRNESS_IDS + 1);
        assertThat(text).contains("fairness_id=\"other\"").contains("fairness_id=\"tenant-7\"")
                .doesNotContain("fairness_id=\"tenant-1200\"");
        assertThat(flow.label("tenant-7")).isEqualTo("tenant-7");
    }
}
