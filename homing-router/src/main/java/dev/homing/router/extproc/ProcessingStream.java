package dev.homing.router.extproc;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.homing.core.director.Dispatch;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.flowcontrol.Ticket;
import dev.homing.core.flowcontrol.Waiter;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.protocol.gateway.GatewayHeaders;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.OpenAiError;
import dev.homing.router.flow.FlowGate;
import dev.homing.router.http.RequestIntake;
import dev.homing.router.http.ResponseModelRewrite;
import dev.homing.router.http.Usage;
import dev.homing.router.outlier.Ejections;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode.BodySendMode;
import io.envoyproxy.envoy.service.ext_proc.v3.HeaderMutation;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * One HTTP request as Envoy's ext_proc filter streams it: request headers, body chunks and trailers in; the picker's
 * decision out as a header mutation and dynamic metadata, with the body given back; then the response passes through
 * and its usage is read. The gRPC stream is the request's life: whatever ends it (the response's end, the gateway
 * closing it, a cancel, an error) releases the load credited at the pick, once.
 *
 * <p>Modes, as the gateway configures them (said in the first message's {@code protocol_config}; without it,
 * llm-d's FULL_DUPLEX_STREAMED): in FULL_DUPLEX_STREAMED the headers are answered once the body is whole, and the body
 * is given back in chunks; in BUFFERED the headers are answered at once and the routing rides on the answer to the
 * body, where header mutations take effect. A request without a body is routed on its headers, in every mode. A body
 * the picker cannot see whole cannot be routed by its content, and is refused: STREAMED (the headers must be answered
 * before the body is seen), BUFFERED_PARTIAL (a body over Envoy's buffer comes cut), NONE (the body is not sent).
 * In observability mode Envoy ignores every answer, so the picker answers nothing and credits no load.
 *
 * <p>A stream's work runs in order through a {@link StreamWork}: on the transport thread that delivered each message,
 * except the decision, which runs on a virtual thread, since a policy may wait (for tokens from a pod, say) and it
 * then holds only its own stream.
 */
final class ProcessingStream implements StreamObserver<ProcessingRequest> {

    private static final System.Logger LOG = System.getLogger(ProcessingStream.class.getName());
    private static final String POD_HEADER = "x-homing-pod";

    private final ExtProcContext ctx;
    private final ServerCallStreamObserver<ProcessingResponse> out;
    private final StreamWork work;
    private BodySendMode requestMode = BodySendMode.FULL_DUPLEX_STREAMED;
    private BodySendMode responseMode = BodySendMode.FULL_DUPLEX_STREAMED;

    private long start;
    private Map<String, String> headers = Map.of();
    private String path = "";
    private BodyBuffer body;
    private boolean bodySeen; // a request_body message arrived: it is answered with the body, even an empty one
    private boolean routed;
    private boolean finished;
    private boolean closed; // this side of the gRPC stream is closed: nothing more may be sent
    private SubsetHint subset;
    private InferenceRequest request;
    private Dispatch dispatch;
    /** Its place in flow control; set before it waits, read by the cancel handler on another thread. */
    private volatile Ticket ticket;
    private boolean responseStarted; // the pod's response headers came: a refusal can no longer be the answer
    private boolean evictPending; // flow control evicted it before its response began: the next message says so

    private ResponseWatch response; // once placed
    private ResponseModelRewrite modelBack; // a rewritten request's response: the model asked for given back
    private boolean servedNoted;

    ProcessingStream(ExtProcContext ctx, ServerCallStreamObserver<ProcessingResponse> out) {
        this.ctx = ctx;
        this.out = out;
        this.work = new StreamWork(ctx.mayWait());
        // A cancel (the gateway's client went away) ends the request; sending after it is then a no-op, not an error.
        out.setOnCancelHandler(() -> {
            leaveQueue(); // at once: the stream's work may be waiting for the queue, and would hold the finish back
            work.submit(() -> finish(Outcome.Cause.CLIENT_DISCONNECT));
        });
    }

    @Override
    public void onNext(ProcessingRequest m) {
        work.submit(() -> handle(m));
    }

    private void handle(ProcessingRequest m) {
        if (finished || m.getObservabilityMode()) {
            // Over (an immediate response was sent: Envoy ignores anything more), or only watched: Envoy routes
            // without the picker and ignores its answers, so there is nothing to decide or credit.
            return;
        }
        try {
            if (m.hasProtocolConfig()) {
                requestMode = m.getProtocolConfig().getRequestBodyMode();
                responseMode = m.getProtocolConfig().getResponseBodyMode();
            }
            if (m.hasMetadataContext()) {
                noteMetadata(m);
            }
            switch (m.getRequestCase()) {
                case REQUEST_HEADERS -> requestHeaders(m.getRequestHeaders());
                case REQUEST_BODY -> requestBody(m.getRequestBody());
                case REQUEST_TRAILERS -> requestTrailers();
                case RESPONSE_HEADERS -> responseHeaders(m.getResponseHeaders());
                case RESPONSE_BODY -> responseBody(m.getResponseBody());
                case RESPONSE_TRAILERS -> responseTrailers();
                default -> {
                }
            }
        } catch (RuntimeException | Error e) {
            failed(e);
        }
    }

    /** A failure of the picker's own: the gateway is told (a 500 before the decision, a broken stream after it). */
    private void failed(Throwable e) {
        LOG.log(System.Logger.Level.WARNING, "ext_proc stream failed", e);
        if (dispatch == null) {
            refuse(OpenAiError.internal("The endpoint picker failed: " + e.getMessage()), null);
        } else {
            finish(Outcome.Cause.ERROR);
            close(Status.INTERNAL.withDescription(e.getMessage()));
        }
    }

    /** Ends this side of the stream once: OK, as llm-d's picker ends it, or with a failure's status. */
    private void close(Status status) {
        if (closed || out.isCancelled()) {
            return;
        }
        closed = true;
        if (status.isOk()) {
            out.onCompleted();
        } else {
            out.onError(status.asRuntimeException());
        }
    }

    @Override
    public void onError(Throwable t) {
        Outcome.Cause cause = Status.fromThrowable(t).getCode() == Status.Code.CANCELLED
                ? Outcome.Cause.CLIENT_DISCONNECT : Outcome.Cause.ERROR;
        leaveQueue();
        work.submit(() -> finish(cause));
    }

    /** The gateway's request went away: a request waiting in flow control leaves it (503, context cancelled). */
    private void leaveQueue() {
        Ticket t = ticket;
        if (t != null) {
            t.cancel();
        }
    }

    @Override
    public void onCompleted() {
        // The gateway has nothing more to send: the response ended, or it does not report responses (SKIP).
        work.submit(() -> {
            finish(Outcome.Cause.NATURAL);
            close(Status.OK);
        });
    }

    private void noteMetadata(ProcessingRequest m) {
        if (dispatch == null) {
            List<String> hint = EnvoyMetadata.subsetHint(m.getMetadataContext());
            if (hint != null) {
                subset = new SubsetHint(hint);
            }
            return;
        }
        String served = servedNoted ? null : EnvoyMetadata.served(m.getMetadataContext());
        if (served != null) {
            servedNoted = true;
            if (!served.equals(dispatch.target().endpoint().address())) {
                EndpointState e = ctx.director().pool().snapshot().byAddress(served);
                if (e != null) {
                    dispatch.servedBy(e);
                } else {
                    LOG.log(System.Logger.Level.DEBUG, "the gateway says {0} served, which is no endpoint of the pool",
                            served);
                }
            }
        }
    }

    private void requestHeaders(HttpHeaders h) {
        start = ctx.ticker().nanos();
        headers = EnvoyHeaders.read(h.getHeaders());
        path = RequestIntake.requestPath(headers);
        if (h.getEndOfStream()) {
            decide(new BodyBuffer(0, 0), false, null); // no body: route on the headers
            return;
        }
        if (requestMode != BodySendMode.FULL_DUPLEX_STREAMED && requestMode != BodySendMode.BUFFERED) {
            refuse(OpenAiError.internal("ext_proc request_body_mode " + requestMode + " does not give the picker the "
                    + "whole body, so it cannot route it by its content: configure FULL_DUPLEX_STREAMED (llm-d's "
                    + "mode) or BUFFERED."), null);
            return;
        }
        long declared = parseLong(headers.get("content-length"));
        if (declared > ctx.maxBodyBytes()) {
            refuse(OpenAiError.payloadTooLarge(ctx.maxBodyBytes()), null);
            return;
        }
        if (requestMode == BodySendMode.BUFFERED) {
            out.onNext(Replies.requestHeadersUnchanged()); // Envoy sends the body only once the headers are answered
        }
        body = new BodyBuffer(declared, ctx.maxBodyBytes());
    }

    private void requestBody(HttpBody b) {
        if (routed) {
            return;
        }
        if (body == null) { // a body without headers first: a broken client
            refuse(OpenAiError.badRequest("Request body before request headers.", null), null);
            return;
        }
        bodySeen = true;
        if (!body.append(b.getBody())) {
            refuse(OpenAiError.payloadTooLarge(ctx.maxBodyBytes()), null);
            return;
        }
        // BUFFERED sends the whole body in one message, trailers or not; FULL_DUPLEX ends it with end_of_stream or
        // with trailers.
        if (b.getEndOfStream() || requestMode == BodySendMode.BUFFERED) {
            decide(body, !b.getEndOfStream(), null);
        }
    }

    private void requestTrailers() {
        Runnable answer = () -> {
            if (!finished) {
                out.onNext(Replies.requestTrailers());
            }
        };
        if (!routed && body != null) {
            decide(body, true, answer); // trailers end the body; they are answered after it
        } else {
            answer.run();
        }
    }

    /**
     * The body is whole: parse, schedule and answer on a thread that may wait, then {@code after} (or null).
     * {@code trailersFollow} keeps the given-back body open for them.
     */
    private void decide(BodyBuffer whole, boolean trailersFollow, Runnable after) {
        routed = true;
        work.continueOffThread(() -> {
            try {
                route(whole, trailersFollow);
                if (after != null) {
                    after.run();
                }
            } catch (RuntimeException | Error e) {
                failed(e);
            }
        });
    }

    private void route(BodyBuffer whole, boolean trailersFollow) {
        byte[] bytes = whole.bytes();
        ApiKind api = ApiKind.forPath(path);
        if (api == null) { // the router's own paths and a pod's operational ones are no model server's to answer
            refuse(OpenAiError.notFound("Unknown path " + path, null), null);
            return;
        }
        RequestIntake.Result in = ctx.intake().parse(api, path, bytes, headers);
        if (in.error() != null) {
            ctx.metrics().rejected("", in.error().status());
            refuse(in.error(), null);
            return;
        }
        request = in.request();
        boolean rewritten = in.body() != bytes;
        bytes = in.body(); // the client's, or a copy whose model was rewritten: what goes to the pod
        if (subset != null && subset.isEmpty()) {
            ctx.metrics().rejected(request.model(), 503);
            refuse(OpenAiError.serviceUnavailable("The gateway's endpoint subset is empty."), "rejected-no-endpoints");
            return;
        }
        String model = request.targetModel();
        try {
            dispatch = admitAndPlace(model, bytes.length);
        } catch (SchedulingException e) {
            ctx.metrics().rejected(request.model(), e.status());
            String reason = e.droppedReason();
            String why = subset != null ? e.getMessage() + " (within the gateway's subset " + subset + ")"
                    : e.getMessage();
            refuse(OpenAiError.refused(e.status(), why), reason);
            return;
        }
        ctx.metrics().requestStarted(request.model(), model);
        modelBack = ResponseModelRewrite.of(request.targetModel(), request.model());
        InferenceRequest placed = request;
        response = new ResponseWatch(dispatch, () -> ctx.metrics().firstToken(placed.model(), placed.targetModel(),
                (ctx.ticker().nanos() - start) / 1e9));
        String destination = dispatch.targets().stream().map(t -> t.endpoint().address())
                .collect(Collectors.joining(","));
        HeaderMutation mutation = mutation(destination, bytes.length);
        var metadata = EnvoyMetadata.destination(destination);
        if (bodySeen && requestMode == BodySendMode.BUFFERED) { // the headers were answered already
            out.onNext(!rewritten ? Replies.requestBodyRouted(mutation, metadata)
                    : Replies.requestBodyRouted(mutation, metadata, UnsafeByteOperations.unsafeWrap(bytes)));
            return;
        }
        out.onNext(Replies.requestHeaders(mutation, metadata));
        if (bodySeen) {
            // Given back even when empty: Envoy ends the upstream request only at an end_of_stream. The array is
            // never written again, so Envoy can be handed slices of it as they are.
            Replies.streamedBody(UnsafeByteOperations.unsafeWrap(bytes), true, !trailersFollow, out::onNext);
        }
    }

    /**
     * Flow control first when it is on: the request goes at once, is refused, or waits here, on this stream's
     * off-transport thread, until the dispatcher places it ({@link Queued}); Envoy is asked to wait that long.
     */
    private Dispatch admitAndPlace(String model, int bytes) throws SchedulingException {
        FlowGate flow = ctx.flow();
        if (flow == null || !flow.active()) {
            return place(model);
        }
        Queued queued = new Queued(model);
        Ticket t = flow.enqueue(request, bytes, queued);
        if (t == null) { // turned off since
            return place(model);
        }
        ticket = t;
        if (t.refusal() != null) {
            throw t.refusal();
        }
        if (t.admittedAtOnce()) {
            return place(model);
        }
        out.onNext(Replies.extendTimeout(QUEUE_TIMEOUT));
        return queued.await();
    }

    /**
     * How long Envoy is asked to wait for a queued request's answer: llm-d's sample filter's {@code message_timeout}
     * (1000 s). The request leaves the queue sooner, at its TTL or when the gateway's client goes.
     */
    static final java.time.Duration QUEUE_TIMEOUT = java.time.Duration.ofSeconds(1000);

    /** The director's decision among the endpoints the request may go to. */
    private Dispatch place(String model) throws SchedulingException {
        long t0 = ctx.ticker().nanos();
        SubsetHint allowed = subset;
        try {
            Dispatch d = ctx.director().dispatch(request, e -> ctx.catalog().serves(e.name(), model)
                    && ctx.health().routable(e.name()) && (allowed == null || allowed.allows(e)));
            ctx.metrics().scheduled(true, (ctx.ticker().nanos() - t0) / 1e9);
            return d;
        } catch (SchedulingException e) {
            ctx.metrics().scheduled(false, (ctx.ticker().nanos() - t0) / 1e9);
            throw e;
        }
    }

    /** A waiting request's outcome: placed by the dispatcher's thread, or refused; the stream waits for it. */
    private final class Queued implements Waiter {
        private final String model;
        private final CountDownLatch done = new CountDownLatch(1);
        private volatile Dispatch placed;
        private volatile SchedulingException refused;
        private volatile RuntimeException failed;

        Queued(String model) {
            this.model = model;
        }

        @Override
        public void admitted() {
            try {
                placed = place(model); // here, so the next dispatch cycle counts its load
            } catch (SchedulingException e) {
                refused = e;
            } catch (RuntimeException e) {
                failed = e;
            } finally {
                done.countDown();
            }
        }

        @Override
        public void refused(SchedulingException why) {
            refused = why;
            done.countDown();
        }

        @Override
        public void evict() {
            work.submit(ProcessingStream.this::evicted);
        }

        Dispatch await() throws SchedulingException {
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                leaveQueue();
                throw new SchedulingException(503, "flow controller shutting down: the picker is stopping",
                        "rejected-shutting-down");
            }
            if (failed != null) {
                throw failed;
            }
            if (refused != null) {
                throw refused;
            }
            return placed;
        }
    }

    /**
     * Flow control evicted this placed request for a more important one. Before the pod's response began the
     * gateway answers 429 ({@code evicted}) at the response's first message; after, the stream is broken off, which
     * makes Envoy reset the request.
     */
    private void evicted() {
        if (finished) {
            return;
        }
        if (!responseStarted) {
            evictPending = true;
            return;
        }
        finish(Outcome.Cause.ERROR);
        close(Status.ABORTED.withDescription("request evicted by flow control"));
    }

    /**
     * The destination (and fallbacks), the body's length, the headers pre-request plugins set (P/D's prefiller); the
     * client's copies of headers that stop at the router are removed.
     */
    private HeaderMutation mutation(String destination, int bodyLength) {
        HeaderMutation.Builder m = HeaderMutation.newBuilder()
                .addSetHeaders(EnvoyHeaders.set(GatewayHeaders.DESTINATION_ENDPOINT, destination));
        if (bodySeen) { // the picker holds the whole body it gives back: its length is the one Envoy forwards
            m.addSetHeaders(EnvoyHeaders.set("content-length", Integer.toString(bodyLength)));
        }
        Map<String, String> plugins = dispatch.cycle().upstreamHeaders();
        plugins.forEach((k, v) -> m.addSetHeaders(EnvoyHeaders.set(k.toLowerCase(Locale.ROOT), v)));
        for (String h : headers.keySet()) {
            if (GatewayHeaders.stopsAtRouter(h) && !h.equals(GatewayHeaders.DESTINATION_ENDPOINT)
                    && !plugins.containsKey(h)) {
                m.addRemoveHeaders(h);
            }
        }
        return m.build();
    }

    private void responseHeaders(HttpHeaders h) {
        responseStarted = true;
        if (evictPending) {
            refuse(OpenAiError.rateLimited("request evicted by flow control"), SchedulingException.EVICTED);
            return;
        }
        HeaderMutation.Builder m = HeaderMutation.newBuilder();
        if (response != null) {
            m.addSetHeaders(EnvoyHeaders.set(POD_HEADER, dispatch.target().name()));
            if (modelBack != null) {
                m.addRemoveHeaders("content-length"); // the model given back may change the body's length
            }
            response.headers(EnvoyHeaders.read(h.getHeaders()))
                    .forEach((k, v) -> m.addSetHeaders(EnvoyHeaders.set(k.toLowerCase(Locale.ROOT), v)));
        }
        out.onNext(Replies.responseHeaders(m.build()));
        if (h.getEndOfStream()) {
            finish(Outcome.Cause.NATURAL);
        }
    }

    private void responseBody(HttpBody b) {
        ByteString chunk = b.getBody();
        if (response != null) {
            response.chunk(chunk);
        }
        if (modelBack != null) {
            chunk = modelBack(chunk, b.getEndOfStream());
        }
        if (responseMode == BodySendMode.FULL_DUPLEX_STREAMED) {
            Replies.streamedBody(chunk, false, b.getEndOfStream(), out::onNext);
        } else if (modelBack != null) {
            out.onNext(Replies.responseBodyReplaced(chunk));
        } else {
            out.onNext(Replies.responseBodyUnchanged());
        }
        if (b.getEndOfStream()) {
            finish(Outcome.Cause.NATURAL);
        }
    }

    /**
     * A chunk of a rewritten request's response with the model asked for given back; at the end, with what was held
     * back of a possible pattern (a chunk's tail is held until the next says whether it completes one).
     */
    private ByteString modelBack(ByteString chunk, boolean end) {
        byte[] a = chunk.toByteArray();
        byte[] out = modelBack.chunk(a, 0, a.length);
        ByteString got = out == null ? chunk : UnsafeByteOperations.unsafeWrap(out);
        return end ? got.concat(UnsafeByteOperations.unsafeWrap(modelBack.end())) : got;
    }

    private void responseTrailers() {
        out.onNext(Replies.responseTrailers());
        finish(Outcome.Cause.NATURAL);
    }

    /** Envoy answers the client with {@code error}; the stream's work is over. */
    private void refuse(OpenAiError error, String droppedReason) {
        routed = true;
        out.onNext(Replies.immediate(error, droppedReason));
        finish(Outcome.Cause.ERROR);
        close(Status.OK); // Envoy answers the client itself; this stream has nothing more to say
    }

    /** Ends the request once: how it ended, its usage and metrics, and the load released. */
    private void finish(Outcome.Cause cause) {
        if (finished) {
            return;
        }
        finished = true;
        Ticket t = ticket;
        if (t != null) {
            t.end();
        }
        Dispatch d = dispatch;
        if (d == null) {
            return;
        }
        Usage u = response.usage();
        int status = response.status();
        if (Ejections.counts(status)) {
            ctx.health().ejections().failed(d.target().name());
        } else if (status > 0) {
            ctx.health().ejections().succeeded(d.target().name());
        }
        try {
            d.complete(new Outcome(cause, Math.max(0, status), u.promptTokens(), u.completionTokens(),
                    u.cachedTokens()));
        } finally {
            d.close();
            ctx.metrics().requestEnded(request.model(), request.targetModel(), status,
                    (ctx.ticker().nanos() - start) / 1e9, u.promptTokens(), u.completionTokens(), u.cachedTokens());
        }
    }

    private static long parseLong(String s) {
        if (s == null) {
            return -1;
        }
        try {
            return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
