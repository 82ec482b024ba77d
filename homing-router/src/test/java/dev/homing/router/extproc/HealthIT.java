package dev.homing.router.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.router.fixtures.TestCluster;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The gRPC health port as llm-d's chart and Envoy probe it: plaintext, every name llm-d answers. */
class HealthIT {

    @Test
    void everyNameLlmdAnswersIsServingOnceTheRouterRunsAndAWatchHearsAChange() throws Exception {
        try (TestCluster c = TestCluster.start(1, b -> b, o -> o.with(x -> {
            x.extProcPort = 0;
            x.healthPort = 0;
        }))) {
            ManagedChannel ch = NettyChannelBuilder.forAddress("127.0.0.1", c.router().healthPort()).usePlaintext()
                    .build();
            try {
                HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(ch);
                for (String name : new String[]{"liveness", "readiness", "inference-extension", "",
                        ExternalProcessorGrpc.SERVICE_NAME}) {
                    assertThat(health.check(HealthCheckRequest.newBuilder().setService(name).build()).getStatus())
                            .as(name).isEqualTo(ServingStatus.SERVING);
                }
                BlockingQueue<ServingStatus> heard = new LinkedBlockingQueue<>();
                HealthGrpc.newStub(ch).watch(HealthCheckRequest.newBuilder().setService("readiness").build(),
                        new StreamObserver<>() {
                            @Override
                            public void onNext(HealthCheckResponse r) {
                                heard.add(r.getStatus());
                            }

                            @Override
                            public void onError(Throwable t) {
                            }

                            @Override
                            public void onCompleted() {
                            }
                        });
                assertThat(heard.poll(5, TimeUnit.SECONDS)).isEqualTo(ServingStatus.SERVING);
                c.router().health().setSynced(false); // what discovery does while the pool is unknown
                assertThat(heard.poll(5, TimeUnit.SECONDS)).isEqualTo(ServingStatus.NOT_SERVING);
                assertThat(health.check(HealthCheckRequest.newBuilder().setService("inference-extension").build())
                        .getStatus()).isEqualTo(ServingStatus.NOT_SERVING);
                assertThat(health.check(HealthCheckRequest.newBuilder().setService("liveness").build()).getStatus())
                        .isEqualTo(ServingStatus.SERVING);
            } finally {
                ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }
}
