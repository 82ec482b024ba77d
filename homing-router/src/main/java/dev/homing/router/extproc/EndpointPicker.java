package dev.homing.router.extproc;

import dev.homing.core.director.Director;
import dev.homing.core.time.Ticker;
import dev.homing.router.http.RequestIntake;
import dev.homing.router.metrics.RequestMetrics;
import dev.homing.router.scrape.EndpointCatalog;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

/**
 * Envoy's {@code envoy.service.ext_proc.v3.ExternalProcessor} as llm-d's endpoint picker serves it: each call is one
 * HTTP request the gateway asks where to send ({@link ProcessingStream}).
 */
public final class EndpointPicker extends ExternalProcessorGrpc.ExternalProcessorImplBase {

    private final ExtProcContext ctx;

    public EndpointPicker(Director director, RequestIntake intake, EndpointCatalog catalog, RequestMetrics metrics,
                          Ticker ticker, int maxBodyBytes) {
        this.ctx = new ExtProcContext(director, intake, catalog, metrics, ticker, maxBodyBytes);
    }

    @Override
    public StreamObserver<ProcessingRequest> process(StreamObserver<ProcessingResponse> responses) {
        return new ProcessingStream(ctx, (ServerCallStreamObserver<ProcessingResponse>) responses);
    }
}
