package dev.homing.core.framework.request;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.fixtures.Requests;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a request's headers say of its objective and flow. */
class InferenceRequestTest {

    @Test
    void theObjectiveAndFlowComeFromTheGatewayHeadersElseTheOlderLlmDNames() {
        InferenceRequest r = Requests.completion("p", Map.of("x-gateway-inference-objective", "critical",
                "x-llm-d-inference-objective", "old", "x-gateway-inference-fairness-id", "tenant-a"));
        assertThat(r.objective()).isEqualTo("critical");
        assertThat(r.fairnessId()).isEqualTo("tenant-a");
        InferenceRequest old = Requests.completion("p", Map.of("x-llm-d-inference-objective", "batch",
                "x-llm-d-inference-fairness-id", "tenant-b"));
        assertThat(old.objective()).isEqualTo("batch");
        assertThat(old.fairnessId()).isEqualTo("tenant-b");
    }

    @Test
    void withoutHeadersThereIsNoObjectiveAndTheFlowIsLlmDsDefault() {
        InferenceRequest r = Requests.completion("p", Map.of("x-gateway-inference-fairness-id", ""));
        assertThat(r.objective()).isNull();
        assertThat(r.fairnessId()).isEqualTo("default-flow");
        assertThat(r.priority()).isZero();
        assertThat(r.sheddable()).isFalse();
        assertThat(r.withPriority(-1).sheddable()).isTrue();
        assertThat(r.withPriority(0)).isSameAs(r);
    }
}
