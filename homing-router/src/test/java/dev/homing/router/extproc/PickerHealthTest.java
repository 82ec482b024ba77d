package dev.homing.router.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.ArrayList;
import java.util.List;
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

    @Test
    void aWatcherWhoseCallClosedIsDroppedAndTheOthersAreStillTold() {
        PickerHealth h = new PickerHealth(true);
        h.setSynced(true);
        Watcher closed = new Watcher();
        Watcher open = new Watcher();
        h.watch(HealthCheckRequest.newBuilder().setService("readiness").build(), closed);
        h.watch(HealthCheckRequest.newBuilder().setService("readiness").build(), open);
        closed.closed = true; // its call closed since: gRPC's onNext throws IllegalStateException

        h.setLeader(true); // must not throw into the leader election
        h.setLeader(false);

        assertThat(open.seen).containsExactly(ServingStatus.NOT_SERVING, ServingStatus.SERVING,
                ServingStatus.NOT_SERVING);
        assertThat(closed.seen).containsExactly(ServingStatus.NOT_SERVING);
        assertThat(closed.sendsTried).as("dropped after the first failure").isEqualTo(2);
    }

    /** A server call's observer as gRPC hands it to the service; once closed, onNext throws as gRPC's does. */
    private static final class Watcher extends ServerCallStreamObserver<HealthCheckResponse> {
        final List<ServingStatus> seen = new ArrayList<>();
        boolean closed;
        int sendsTried;

        @Override
        public void onNext(HealthCheckResponse value) {
            sendsTried++;
            if (closed) {
                throw new IllegalStateException("call is closed");
            }
            seen.add(value.getStatus());
        }

        @Override
        public boolean isCancelled() {
            return false; // the client has not cancelled: the server closed the call (a race gRPC allows)
        }

        @Override
        public void setOnCancelHandler(Runnable onCancelHandler) {
        }

        @Override
        public void setCompression(String compression) {
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setOnReadyHandler(Runnable onReadyHandler) {
        }

        @Override
        public void request(int count) {
        }

        @Override
        public void setMessageCompression(boolean enable) {
        }

        @Override
        public void disableAutoInboundFlowControl() {
        }

        @Override
        public void onError(Throwable t) {
        }

        @Override
        public void onCompleted() {
        }
    }
}
