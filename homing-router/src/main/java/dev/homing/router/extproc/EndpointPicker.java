package dev.homing.router.extproc;

import dev.homing.core.director.Director;
import dev.homing.core.time.Ticker;
import dev.homing.router.flow.FlowGate;
import dev.homing.router.http.RequestIntake;
import dev.homing.router.metrics.RequestMetrics;
import dev.homing.router.outlier.PodHealth;
import dev.homing.router.scrape.EndpointCatalog;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Envoy's {@code envoy.service.ext_proc.v3.ExternalProcessor} as llm-d's endpoint picker serves it: each call is one
 * HTTP request the gateway asks where to send ({@link ProcessingStream}). Owns the virtual threads decisions run on;
 * close it after the port that serves it.
 */
public final class EndpointPicker extends ExternalProcessorGrpc.ExternalProcessorImplBase implements AutoCloseable {

    private final ExecutorService decisions = Executors.newVirtualThreadPerTaskExecutor();
    private final ExtProcContext ctx;

    public EndpointPicker(Director director, RequestIntake intake, EndpointCatalog catalog, PodHealth health,
                          RequestMetrics metrics, Ticker ticker, int maxBodyBytes, FlowGate flow) {
        this.ctx = new ExtProcContext(director, intake, catalog, health, metrics, ticker, maxBodyBytes, decisions,
                flow);
    }

    @Override
    public void close() {
        decisions.shutdownNow();
    }

    @Override
    public StreamObserver<ProcessingRequest> process(StreamObserver<ProcessingResponse> responses) {
        return new ProcessingStream(ctx, (ServerCallStreamObserver<ProcessingResponse>) responses);
    }
}
