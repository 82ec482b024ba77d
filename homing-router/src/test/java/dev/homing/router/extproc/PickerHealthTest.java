package dev.homing.router.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import org.junit.jupiter.api.Test;

/** The statuses of llm-d's {@code health_test.go}, case by case. */
class PickerHealthTest {

    @Test
    void withoutLeaderElectionAnyNameAnswersTheReadinessAndLivenessIsAlwaysServing() {
        PickerHealth h = new PickerHealth(false);
        assertThat(h.status("")).isEqualTo(ServingStatus.NOT_SERVING);
        assertThat(h.status("inference-extension")).isEqualTo(ServingStatus.NOT_SERVING);
        assertThat(h.status("liveness")).isEqualTo(ServingStatus.SERVING);
        h.setSynced(true);
        for (String name : new String[]{"", "readiness", "inference-extension", "anything",
                ExternalProcessorGrpc.SERVICE_NAME}) {
            assertThat(h.status(name)).as(name).isEqualTo(ServingStatus.SERVING);
        }
    }

    @Test
    void withLeaderElectionOnlyTheSyncedLeaderIsReadyAndUnknownNamesAreUnknown() {
        PickerHealth h = new PickerHealth(true);
        h.setSynced(true);
        assertThat(h.status("readiness")).isEqualTo(ServingStatus.NOT_SERVING);
        assertThat(h.status("liveness")).isEqualTo(ServingStatus.SERVING);
        h.setLeader(true);
        for (String name : new String[]{"", "readiness", "inference-extension", ExternalProcessorGrpc.SERVICE_NAME}) {
            assertThat(h.status(name)).as(name).isEqualTo(ServingStatus.SERVING);
        }
        assertThat(h.status("unknown")).isEqualTo(ServingStatus.SERVICE_UNKNOWN);
        h.setSynced(false);
        assertThat(h.status("readiness")).isEqualTo(ServingStatus.NOT_SERVING);
    }
}
