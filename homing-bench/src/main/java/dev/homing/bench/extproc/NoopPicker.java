package dev.homing.bench.extproc;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.service.ext_proc.v3.BodyMutation;
import io.envoyproxy.envoy.service.ext_proc.v3.BodyResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.HeaderMutation;
import io.envoyproxy.envoy.service.ext_proc.v3.HeadersResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.StreamedBodyResponse;
import io.grpc.stub.StreamObserver;

/**
 * The baseline the ext_proc benchmark measures the picker against: a grpc-java ext_proc server that speaks the same
 * FULL_DUPLEX_STREAMED pattern (headers answered once the body is whole, the body given back, response chunks
 * echoed) but decides nothing: every request goes to one fixed address. What remains of the picker's cost over it is
 * parsing, scheduling and bookkeeping.
 */
public final class NoopPicker extends ExternalProcessorGrpc.ExternalProcessorImplBase {

    private final String destination;

    public NoopPicker(String destination) {
        this.destination = destination;
    }

    @Override
    public StreamObserver<ProcessingRequest> process(StreamObserver<ProcessingResponse> out) {
        return new StreamObserver<>() {
            private ByteString body = ByteString.EMPTY;

            @Override
            public void onNext(ProcessingRequest m) {
                switch (m.getRequestCase()) {
                    case REQUEST_BODY -> {
                        body = body.concat(m.getRequestBody().getBody());
                        if (m.getRequestBody().getEndOfStream()) {
                            out.onNext(routed());
                            out.onNext(streamed(body, true, true));
                        }
                    }
                    case RESPONSE_HEADERS -> out.onNext(ProcessingResponse.newBuilder().setResponseHeaders(
                            HeadersResponse.newBuilder().setResponse(CommonResponse.getDefaultInstance())).build());
                    case RESPONSE_BODY -> out.onNext(streamed(m.getResponseBody().getBody(),
                            m.getResponseBody().getEndOfStream(), false));
                    default -> {
                    }
                }
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
                out.onCompleted();
            }
        };
    }

    private ProcessingResponse routed() {
        HeaderMutation m = HeaderMutation.newBuilder().addSetHeaders(HeaderValueOption.newBuilder()
                .setHeader(HeaderValue.newBuilder().setKey("x-gateway-destination-endpoint")
                        .setRawValue(ByteString.copyFromUtf8(destination)))).build();
        Struct lb = Struct.newBuilder().putFields("x-gateway-destination-endpoint",
                Value.newBuilder().setStringValue(destination).build()).build();
        return ProcessingResponse.newBuilder()
                .setRequestHeaders(HeadersResponse.newBuilder().setResponse(CommonResponse.newBuilder()
                        .setClearRouteCache(true).setHeaderMutation(m)))
                .setDynamicMetadata(Struct.newBuilder().putFields("envoy.lb",
                        Value.newBuilder().setStructValue(lb).build()))
                .build();
    }

    private static ProcessingResponse streamed(ByteString b, boolean endOfStream, boolean request) {
        BodyResponse r = BodyResponse.newBuilder().setResponse(CommonResponse.newBuilder().setBodyMutation(
                BodyMutation.newBuilder().setStreamedResponse(StreamedBodyResponse.newBuilder().setBody(b)
                        .setEndOfStream(endOfStream)))).build();
        return request ? ProcessingResponse.newBuilder().setRequestBody(r).build()
                : ProcessingResponse.newBuilder().setResponseBody(r).build();
    }
}
