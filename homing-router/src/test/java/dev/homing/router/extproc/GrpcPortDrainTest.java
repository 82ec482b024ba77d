package dev.homing.router.extproc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A closing gRPC port refuses new calls but lets a stream under way go on, past the old fixed 2 s, until it ends
 * (an ext_proc stream lasts a whole generation): here a health Watch, a server stream that stays open as an ext_proc
 * stream does, on a real port on 127.0.0.1.
 */
class GrpcPortDrainTest {

    @Test
    void anOpenStreamGoesOnWhileThePortClosesAndTheCloseEndsWhenItDoes() throws Exception {
        HealthStatusManager health = new HealthStatusManager();
        health.setStatus("picker", ServingStatus.SERVING);
        GrpcPort port = new GrpcPort("test", "127.0.0.1", 0, new GrpcPort.Security.Plaintext(), 1 << 16,
                Duration.ofSeconds(60), health.getHealthService());
        port.start();
        ManagedChannel open = channel(port.port());
        ManagedChannel late = channel(port.port());
        LinkedBlockingQueue<Object> seen = new LinkedBlockingQueue<>();
        try {
            HealthGrpc.newBlockingStub(late).check(HealthCheckRequest.newBuilder().setService("picker").build());
            HealthGrpc.newStub(open).watch(HealthCheckRequest.newBuilder().setService("picker").build(),
                    new StreamObserver<>() {
                        @Override
                        public void onNext(HealthCheckResponse r) {
                            seen.add(r.getStatus());
                        }

                        @Override
                        public void onError(Throwable t) {
                            seen.add(Status.fromThrowable(t).getCode());
                        }

                        @Override
                        public void onCompleted() {
                            seen.add("completed");
                        }
                    });
            assertThat(seen.poll(10, TimeUnit.SECONDS)).isEqualTo(ServingStatus.SERVING);

            CompletableFuture<Void> closing = CompletableFuture.runAsync(port::close);
            // a new call is refused once the close has begun (the gateway goes to another picker) ...
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThatThrownBy(() -> HealthGrpc
                    .newBlockingStub(late).withDeadlineAfter(10, TimeUnit.SECONDS)
                    .check(HealthCheckRequest.newBuilder().setService("picker").build()))
                    .isInstanceOfSatisfying(StatusRuntimeException.class,
                            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE)));
            // ... while the stream under way still works after the 2 s a port used to give it
            Thread.sleep(3000);
            assertThat(closing).isNotDone();
            health.setStatus("picker", ServingStatus.NOT_SERVING);
            assertThat(seen.poll(10, TimeUnit.SECONDS)).isEqualTo(ServingStatus.NOT_SERVING);
            // the stream ends (the gateway's request is done): the close returns, not waiting out its drain timeout
            open.shutdownNow();
            closing.get(20, TimeUnit.SECONDS);
        } finally {
            open.shutdownNow();
            late.shutdownNow();
            port.close();
        }
    }

    private static ManagedChannel channel(int port) {
        return NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
    }
}
