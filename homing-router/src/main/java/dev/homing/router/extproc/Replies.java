package dev.homing.router.extproc;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import dev.homing.protocol.gateway.GatewayHeaders;
import dev.homing.protocol.openai.OpenAiError;
import io.envoyproxy.envoy.service.ext_proc.v3.BodyMutation;
import io.envoyproxy.envoy.service.ext_proc.v3.BodyResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.HeaderMutation;
import io.envoyproxy.envoy.service.ext_proc.v3.HeadersResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ImmediateResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.StreamedBodyResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.TrailersResponse;
import io.envoyproxy.envoy.type.v3.HttpStatus;
import io.envoyproxy.envoy.type.v3.StatusCode;
import java.util.function.Consumer;

/** The messages the picker sends Envoy, one factory per kind. */
final class Replies {

    /**
     * Largest body chunk sent back, as llm-d's picker cuts them: Envoy recommends at most 64 KiB per chunk, and its
     * gRPC client's default receive limit leaves room for the message around it.
     */
    static final int CHUNK = 62_000;

    private Replies() {
    }

    /** The answer to the request headers: where to go (header and metadata agree), and recompute the route. */
    static ProcessingResponse requestHeaders(HeaderMutation mutation, Struct destination) {
        return ProcessingResponse.newBuilder()
                .setRequestHeaders(HeadersResponse.newBuilder().setResponse(CommonResponse.newBuilder()
                        .setClearRouteCache(true).setHeaderMutation(mutation)))
                .setDynamicMetadata(destination)
                .build();
    }

    /** Headers let through unchanged (BUFFERED mode answers the headers before the body it routes on). */
    static ProcessingResponse requestHeadersUnchanged() {
        return ProcessingResponse.newBuilder()
                .setRequestHeaders(HeadersResponse.newBuilder().setResponse(CommonResponse.getDefaultInstance()))
                .build();
    }

    /** BUFFERED mode's answer to the whole body: the destination, as header mutation (which takes effect there). */
    static ProcessingResponse requestBodyRouted(HeaderMutation mutation, Struct destination) {
        return ProcessingResponse.newBuilder()
                .setRequestBody(BodyResponse.newBuilder().setResponse(CommonResponse.newBuilder()
                        .setClearRouteCache(true).setHeaderMutation(mutation)))
                .setDynamicMetadata(destination)
                .build();
    }

    /** BUFFERED mode's answer to a body whose model was rewritten: the destination, and the body to send instead. */
    static ProcessingResponse requestBodyRouted(HeaderMutation mutation, Struct destination, ByteString body) {
        return ProcessingResponse.newBuilder()
                .setRequestBody(BodyResponse.newBuilder().setResponse(CommonResponse.newBuilder()
                        .setClearRouteCache(true).setHeaderMutation(mutation)
                        .setBodyMutation(BodyMutation.newBuilder().setBody(body))))
                .setDynamicMetadata(destination)
                .build();
    }

    /** A response body chunk replaced (modes other than FULL_DUPLEX_STREAMED, for a rewritten model). */
    static ProcessingResponse responseBodyReplaced(ByteString body) {
        return ProcessingResponse.newBuilder()
                .setResponseBody(BodyResponse.newBuilder().setResponse(CommonResponse.newBuilder()
                        .setBodyMutation(BodyMutation.newBuilder().setBody(body))))
                .build();
    }

    /**
     * A body given back in FULL_DUPLEX_STREAMED mode, cut into {@link #CHUNK}-byte pieces without copying; the last
     * piece says whether the body ends there (it does not when trailers follow).
     */
    static void streamedBody(ByteString body, boolean request, boolean endOfStream, Consumer<ProcessingResponse> out) {
        int size = body.size();
        int offset = 0;
        do {
            int end = Math.min(size, offset + CHUNK);
            StreamedBodyResponse piece = StreamedBodyResponse.newBuilder()
                    .setBody(body.substring(offset, end))
                    .setEndOfStream(endOfStream && end == size)
                    .build();
            BodyResponse b = BodyResponse.newBuilder().setResponse(CommonResponse.newBuilder()
                    .setBodyMutation(BodyMutation.newBuilder().setStreamedResponse(piece))).build();
            out.accept(request ? ProcessingResponse.newBuilder().setRequestBody(b).build()
                    : ProcessingResponse.newBuilder().setResponseBody(b).build());
            offset = end;
        } while (offset < size);
    }

    /** A response body chunk let through unchanged (modes other than FULL_DUPLEX_STREAMED answer one for one). */
    static ProcessingResponse responseBodyUnchanged() {
        return ProcessingResponse.newBuilder()
                .setResponseBody(BodyResponse.newBuilder().setResponse(CommonResponse.getDefaultInstance()))
                .build();
    }

    static ProcessingResponse responseHeaders(HeaderMutation mutation) {
        return ProcessingResponse.newBuilder()
                .setResponseHeaders(HeadersResponse.newBuilder().setResponse(CommonResponse.newBuilder()
                        .setHeaderMutation(mutation)))
                .build();
    }

    /**
     * Only {@code override_message_timeout}: the picker needs longer than Envoy's {@code message_timeout} for this
     * message (the request waits in flow control). Envoy restarts its timer with it when its filter sets a
     * {@code max_message_timeout} at least as long, and ignores it otherwise.
     */
    static ProcessingResponse extendTimeout(java.time.Duration timeout) {
        return ProcessingResponse.newBuilder().setOverrideMessageTimeout(com.google.protobuf.Duration.newBuilder()
                .setSeconds(timeout.toSeconds()).setNanos(timeout.toNanosPart())).build();
    }

    static ProcessingResponse requestTrailers() {
        return ProcessingResponse.newBuilder().setRequestTrailers(TrailersResponse.getDefaultInstance()).build();
    }

    static ProcessingResponse responseTrailers() {
        return ProcessingResponse.newBuilder().setResponseTrailers(TrailersResponse.getDefaultInstance()).build();
    }

    /**
     * Envoy answers the client itself: an OpenAI error, as the proxy would answer it.
     *
     * @param droppedReason llm-d's {@code x-llm-d-request-dropped-reason} value, or null
     */
    static ProcessingResponse immediate(OpenAiError error, String droppedReason) {
        HeaderMutation.Builder headers = HeaderMutation.newBuilder()
                .addSetHeaders(EnvoyHeaders.set("content-type", "application/json"));
        if (droppedReason != null) {
            headers.addSetHeaders(EnvoyHeaders.set(GatewayHeaders.REQUEST_DROPPED_REASON, droppedReason));
        }
        StatusCode code = StatusCode.forNumber(error.status());
        return ProcessingResponse.newBuilder()
                .setImmediateResponse(ImmediateResponse.newBuilder()
                        .setStatus(HttpStatus.newBuilder().setCode(code != null ? code : StatusCode.InternalServerError))
                        .setHeaders(headers)
                        .setBody(ByteString.copyFrom(error.toJson()))
                        .setDetails("homing_" + error.type()))
                .build();
    }
}
