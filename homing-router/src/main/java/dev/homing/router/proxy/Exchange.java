package dev.homing.router.proxy;

import dev.homing.core.director.Decision;
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
import dev.homing.router.auth.Access;
import dev.homing.router.http.RequestIntake;
import dev.homing.router.http.ResponseModelRewrite;
import dev.homing.router.http.Usage;
import dev.homing.router.http.UsageScanner;
import dev.homing.router.outlier.Ejections;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One forwarded request, from its last body byte to the end of what the client got: judged once, placed by the
 * director, sent to the pod over a kept connection with the original body bytes, and its response relayed as it
 * arrives. An SSE stream goes on chunk by chunk, each flushed; a body of known length up to {@link #WHOLE} is held
 * (without copying: the pod's buffers themselves) and sent in one write, so a pod that stops short gets the client a
 * 502, not a cut body. A pod that cannot be reached is left for another, up to the attempts allowed; a kept connection
 * the pod had closed is replaced once without counting against it.
 *
 * <p>Runs on its client connection's event loop (the pod's connection is opened on the same loop), but for a
 * decision that may block, which runs off the loop ({@link ProxyContext#mayBlock()}). Every path out completes and
 * closes the dispatch exactly once, so the load it credited is always released: the response's end, a pod's failure
 * or timeout, the client's disconnect (which closes the pod's connection, aborting the request there), a plugin's
 * exception.
 */
final class Exchange implements PodListener, PodChannels.Borrowed {

    /**
     * Ask for the decision to come back as a response header of the same name, rendered by the explainer the port is
     * given. The composition root gives it explain's compact rendering, so the header and {@code /debug/schedule}
     * explain alike while proxy and explain import nothing of each other.
     */
    static final String EXPLAIN_HEADER = "x-homing-explain";
    static final String POD_HEADER = "x-homing-pod";
    /** Bodies of known length up to this are held whole and sent in one write with the head. */
    static final int WHOLE = 64 * 1024;

    private static final System.Logger LOG = System.getLogger(Exchange.class.getName());

    private enum State { QUEUED, DECIDING, CONNECTING, SENT, DONE }

    private final ProxyContext px;
    private final ClientConnection client;
    private final ChannelHandlerContext ctx;
    private final EventLoop loop;
    private final ApiKind api;
    private final String method;
    private final String target;
    private final String path;
    private final Map<String, String> headers;
    private byte[] body; // the client's, until the intake rewrites its model
    private final long start;
    /** Endpoints that could not be reached, not to be tried again; handed between loop and decider with the task. */
    private final Set<String> failedPods = new LinkedHashSet<>();

    private State state = State.DECIDING;
    private boolean clientGone;
    private InferenceRequest request;
    private boolean started;
    private Dispatch dispatch;
    /** Its place in flow control, from its first attempt to its end; null when flow control is off. */
    private Ticket ticket;
    /** Flow control evicted it before it reached its pod: it ends there with a 429. */
    private boolean evictPending;
    private EndpointState pod;
    /** The pod's {@code host:port}, made once: every step of an attempt names it. */
    private String address;
    private String explain;

    private Channel channel;
    private boolean pooled;
    private boolean replacedStale;
    private boolean heard;
    /** The wait for the response head, then for the body's next bytes. */
    private ScheduledFuture<?> timer;
    private long lastHeard;
    /** Retries of the retry budget this exchange holds, given back as it ends. */
    private int retriesHeld;

    private int status;
    private boolean responding;
    private boolean sse;
    private boolean whole;
    private boolean bodiless;
    private boolean podKeepAlive;
    private boolean firstByte;
    private boolean interim;
    private long length;
    private HttpResponseStatus responseStatus;
    private HttpHeaders responseHeaders;
    private CompositeByteBuf held;
    private UsageScanner usage;
    private ResponseModelRewrite modelBack; // a rewritten request's response: the model asked for given back

    /**
     * @param target  the request target as the client sent it (path and query)
     * @param headers the client's headers, names lower-cased; becomes the request's own
     */
    Exchange(ProxyContext px, ClientConnection client, ChannelHandlerContext ctx, ApiKind api, String method,
             String target, String path, Map<String, String> headers, byte[] body) {
        this.px = px;
        this.client = client;
        this.ctx = ctx;
        this.loop = ctx.channel().eventLoop();
        this.api = api;
        this.method = method;
        this.target = target;
        this.path = path;
        this.headers = headers;
        this.body = body;
        this.start = px.ticker().nanos();
        px.retries().started();
    }

    /**
     * Decides where the request goes, then sends it; on the loop. Under flow control the request is judged first and
     * put through the queues once (a retry on another pod does not queue again).
     */
    void start() {
        state = State.DECIDING;
        if (ticket == null && px.flow() != null && px.flow().active()) {
            if (request == null) {
                Decided judged = judge();
                if (judged != null) {
                    decided(judged);
                    return;
                }
            }
            enqueue();
            return;
        }
        place();
    }

    /** Puts the parsed request through flow control: it goes at once, is refused, or waits its turn. */
    private void enqueue() {
        Ticket t = px.flow().enqueue(request, body.length, new Queued());
        if (t == null) { // flow control was turned off meanwhile
            place();
            return;
        }
        ticket = t;
        if (t.refusal() != null) {
            decided(refusal(t.refusal()));
        } else if (t.admittedAtOnce()) {
            place();
        } else {
            state = State.QUEUED;
        }
    }

    /** What flow control decides for a waiting request; called off the loop (the dispatcher's thread, mostly). */
    private final class Queued implements Waiter {
        @Override
        public void admitted() {
            // placed here, before the next dispatch cycle reads the pool's saturation: the load it adds is counted
            hand(decide());
        }

        @Override
        public void refused(SchedulingException why) {
            onLoop(() -> {
                if (state == State.QUEUED) {
                    decided(refusal(why));
                }
            });
        }

        @Override
        public void evict() {
            onLoop(Exchange.this::evicted);
        }
    }

    private void onLoop(Runnable task) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException e) {
            // the port is closing; the exchange is ended with its connection
        }
    }

    /** A decision made off the loop goes back to it; if no loop takes it (the port is closing), its load is freed. */
    private void hand(Decided d) {
        try {
            loop.execute(() -> decided(d));
        } catch (RejectedExecutionException e) {
            if (d.dispatch() != null) {
                d.dispatch().close();
            }
            if (ticket != null) {
                ticket.end();
            }
        }
    }

    private void place() {
        state = State.DECIDING;
        if (!px.mayBlock().getAsBoolean()) {
            decided(decide());
            return;
        }
        px.offLoop().execute(() -> hand(decide()));
    }

    /** @param droppedReason llm-d's {@code x-llm-d-request-dropped-reason} for a refusal, or null */
    private record Decided(Dispatch dispatch, OpenAiError error, String explain, String droppedReason) {
        Decided(Dispatch dispatch, OpenAiError error, String explain) {
            this(dispatch, error, explain, null);
        }
    }

    /** Parses the request, once; the error to answer with, or null. */
    private Decided judge() {
        RequestIntake.Result in = px.intake().parseOwned(api, path, body, headers);
        if (in.error() != null) {
            return new Decided(null, in.error(), null);
        }
        request = in.request();
        body = in.body();
        px.metrics().requestStarted(request.model(), request.targetModel());
        started = true;
        return null;
    }

    private static Decided refusal(SchedulingException e) {
        return new Decided(null, OpenAiError.refused(e.status(), e.getMessage()), null, e.droppedReason());
    }

    /** Judges the request (the first time) and places it; on any thread. */
    private Decided decide() {
        try {
            if (request == null) {
                Decided judged = judge();
                if (judged != null) {
                    return judged;
                }
            }
            String model = request.targetModel();
            long t0 = px.ticker().nanos();
            Dispatch d;
            try {
                d = px.director().dispatch(request, (EndpointState e) -> !failedPods.contains(e.name())
                        && px.health().routable(e.name()) && px.catalog().serves(e.name(), model));
                px.metrics().scheduled(true, (px.ticker().nanos() - t0) / 1e9);
            } catch (SchedulingException e) {
                px.metrics().scheduled(false, (px.ticker().nanos() - t0) / 1e9);
                return failedPods.isEmpty() ? refusal(e) : new Decided(null, unreachable(), null);
            }
            try {
                String explained = "true".equalsIgnoreCase(request.header(EXPLAIN_HEADER))
                        && px.access().explains(request.header(Access.ADMIN_TOKEN_HEADER))
                        ? px.explainer().apply(new Decision(d.cycle(), d.result())) : null;
                return new Decided(d, null, explained);
            } catch (RuntimeException e) {
                d.close();
                throw e;
            }
        } catch (RuntimeException e) {
            return new Decided(null, OpenAiError.internal("The request could not be placed: " + e), null);
        }
    }

    private void decided(Decided d) {
        if (d.error() != null) {
            respond(d.error(), d.droppedReason());
            finish();
            return;
        }
        dispatch = d.dispatch();
        explain = d.explain();
        if (clientGone || evictPending) {
            endDispatch(clientGone ? Outcome.Cause.CLIENT_DISCONNECT : Outcome.Cause.ERROR);
            if (!clientGone) {
                respond(EVICTED, SchedulingException.EVICTED);
            }
            finish();
            return;
        }
        pod = dispatch.target();
        address = pod.endpoint().address();
        state = State.CONNECTING;
        px.pods().borrow(loop, address, this);
    }

    @Override
    public void borrowed(Channel ch, boolean pooled) {
        if (clientGone || evictPending) {
            px.pods().release(ch, address); // nothing was sent on it
            endDispatch(clientGone ? Outcome.Cause.CLIENT_DISCONNECT : Outcome.Cause.ERROR);
            if (!clientGone) {
                respond(EVICTED, SchedulingException.EVICTED);
            }
            finish();
            return;
        }
        this.channel = ch;
        this.pooled = pooled;
        this.heard = false;
        state = State.SENT;
        ch.pipeline().get(PodHandler.class).attach(this);
        boolean noBody = body.length == 0 && ("GET".equals(method) || "HEAD".equals(method));
        HttpHeaders h = ForwardedHeaders.toPod(request.headers(), dispatch.cycle().upstreamHeaders(), address,
                px.access().authorizationFor(pod.name(), request.header("authorization")), noBody ? -1 : body.length);
        ByteBuf content = body.length == 0 ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body);
        ch.writeAndFlush(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.valueOf(method), target,
                content, h, EmptyHttpHeaders.INSTANCE)).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        if (px.responseTimeoutMillis() > 0) {
            timer = loop.schedule(this::headTimedOut, px.responseTimeoutMillis(), TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void failed(Throwable cause) {
        if (clientGone) {
            endDispatch(Outcome.Cause.CLIENT_DISCONNECT);
            finish();
            return;
        }
        unreached();
    }

    /** The pod took no request from this attempt: another is tried, up to the attempts allowed. */
    private void unreached() {
        String name = pod.name();
        px.health().ejections().failed(name);
        px.health().unreachable(name);
        endDispatch(Outcome.Cause.ERROR);
        failedPods.add(name);
        px.metrics().retried(name);
        if (failedPods.size() >= px.maxAttempts()) {
            respond(unreachable());
            finish();
            return;
        }
        start();
    }

    /**
     * Whether a pod's "too busy" (429, or 503 as vLLM says it when its engine cannot take more) is tried on another
     * pod instead of relayed: only before any byte went to the client (so always, at the head), with attempts left,
     * and within the retry budget, so that a fleet-wide overload is not made worse by retries.
     */
    private boolean retriesBusy(int code) {
        return (code == 429 || code == 503) && failedPods.size() + 1 < px.maxAttempts() && px.retries().tryRetry();
    }

    /** The pod answered that it is too busy: its answer is dropped and another pod tried after a jittered back-off. */
    private void busyElsewhere(int code) {
        String name = pod.name();
        retriesHeld++;
        px.health().ejections().failed(name);
        dropChannel();
        status = code;
        endDispatch(Outcome.Cause.ERROR);
        status = 0;
        failedPods.add(name);
        px.metrics().retried(name);
        state = State.DECIDING;
        loop.schedule(this::start, px.retries().backOffMillis(failedPods.size()), TimeUnit.MILLISECONDS);
    }

    private OpenAiError unreachable() {
        return OpenAiError.serviceUnavailable("No endpoint reachable; tried " + String.join(", ", failedPods) + ".");
    }

    private void headTimedOut() {
        if (state != State.SENT || heard) {
            return;
        }
        dropChannel();
        px.health().ejections().failed(pod.name());
        // The pod accepted the request and is working on it: another pod would only do it again.
        endDispatch(Outcome.Cause.TIMEOUT);
        respond(OpenAiError.timeout(pod.name() + " did not answer within the response timeout."));
        finish();
    }

    @Override
    public void podMessage(HttpObject message) {
        if (state != State.SENT) {
            return;
        }
        heard = true;
        if (message instanceof HttpResponse r) {
            cancelTimeout();
            int code = r.status().code();
            if (code < 200 && code != 101) {
                interim = true; // a 1xx: the response follows it
                return;
            }
            if (retriesBusy(code)) {
                busyElsewhere(code);
                return;
            }
            head(r);
            if (px.idleTimeoutMillis() > 0 && state == State.SENT) {
                lastHeard = px.ticker().nanos();
                timer = loop.schedule(this::idleCheck, px.idleTimeoutMillis(), TimeUnit.MILLISECONDS);
            }
        }
        if (message instanceof HttpContent c) {
            if (interim) {
                interim = !(c instanceof LastHttpContent);
                return;
            }
            content(c);
            if (c instanceof LastHttpContent last && state == State.SENT) {
                end(last);
            }
        }
    }

    private void head(HttpResponse r) {
        status = r.status().code();
        if (Ejections.counts(status)) {
            px.health().ejections().failed(pod.name());
        } else {
            px.health().ejections().succeeded(pod.name());
        }
        responseStatus = r.status();
        String type = r.headers().get(HttpHeaderNames.CONTENT_TYPE);
        sse = type != null && type.regionMatches(true, 0, "text/event-stream", 0, 17);
        length = HttpUtil.getContentLength(r, -1L);
        bodiless = "HEAD".equals(method) || status == 204 || status == 304;
        podKeepAlive = HttpUtil.isKeepAlive(r);
        HttpHeaders out = new DefaultHttpHeaders(false); // the pod's, checked by the decoder; the router's own
        for (Map.Entry<String, String> h : r.headers()) {
            if (ForwardedHeaders.returned(h.getKey())) {
                out.add(h.getKey(), h.getValue());
            }
        }
        out.set(GatewayHeaders.DESTINATION_ENDPOINT, address);
        out.set(POD_HEADER, pod.name());
        if (explain != null) {
            out.set(EXPLAIN_HEADER, explain);
        }
        Map<String, String> extra = new LinkedHashMap<>();
        dispatch.onHeaders(status, extra);
        extra.forEach(out::set);
        // A response's id is remembered as it passes, before the bytes carrying it go on: a follow-up the client sends
        // the moment it has them must find this pod.
        usage = new UsageScanner(sse, status >= 200 && status < 300 ? dispatch::answered : null, sse ? -1 : length);
        whole = !sse && !bodiless && length >= 0 && length <= WHOLE;
        modelBack = bodiless ? null : ResponseModelRewrite.of(request.targetModel(), request.model());
        responseHeaders = out;
        if (whole) {
            held = ctx.alloc().compositeBuffer(Integer.MAX_VALUE);
            return;
        }
        if (bodiless) {
            if (length >= 0) {
                out.set(HttpHeaderNames.CONTENT_LENGTH, length);
            }
        } else if (!sse && length >= 0 && modelBack == null) { // a rewrite may change the length: chunked then
            out.set(HttpHeaderNames.CONTENT_LENGTH, length);
        } else {
            out.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        }
        responding = true;
        write(new DefaultHttpResponse(HttpVersion.HTTP_1_1, responseStatus, out));
    }

    private void content(HttpContent c) {
        ByteBuf bytes = c.content();
        int n = bytes.readableBytes();
        if (n > 0) {
            lastHeard = px.ticker().nanos();
            if (!firstByte) {
                firstByte = true;
                // The pod answers once its prefill is over (or it gave up): its pending prefill shrinks now.
                dispatch.firstToken();
                if (sse) {
                    px.metrics().firstToken(request.model(), request.targetModel(),
                            (px.ticker().nanos() - start) / 1e9);
                }
            }
            scan(bytes, n);
        }
        if (whole) {
            if (n > 0) {
                held.addComponent(true, bytes.retain());
            }
        } else if (n > 0 && !bodiless && !(c instanceof LastHttpContent)) {
            write(new DefaultHttpContent(modelBack == null ? bytes.retain() : modelBack(bytes)));
        }
    }

    /** A piece of a rewritten request's response, the model asked for given back: the pod's buffer when unchanged. */
    private ByteBuf modelBack(ByteBuf bytes) {
        byte[] a = ByteBufUtil.getBytes(bytes);
        byte[] out = modelBack.chunk(a, 0, a.length);
        return out == null ? bytes.retain() : Unpooled.wrappedBuffer(out);
    }

    /** Usage and the response hooks read the bytes as they pass; a direct buffer is read through a scratch array. */
    private void scan(ByteBuf bytes, int n) {
        if (bytes.hasArray()) {
            int off = bytes.arrayOffset() + bytes.readerIndex();
            usage.accept(bytes.array(), off, n);
            dispatch.onBodyChunk(bytes.array(), off, n);
            return;
        }
        byte[] scratch = client.scratch();
        for (int at = 0; at < n; at += scratch.length) {
            int k = Math.min(scratch.length, n - at);
            bytes.getBytes(bytes.readerIndex() + at, scratch, 0, k);
            usage.accept(scratch, 0, k);
            dispatch.onBodyChunk(scratch, 0, k);
        }
    }

    private void end(LastHttpContent last) {
        if (last.decoderResult().isFailure()) {
            cutShort(null); // the pod closed before the length it declared, or mid-chunk
            return;
        }
        Channel ch = channel;
        channel = null;
        if (podKeepAlive && ch.isActive()) {
            px.pods().release(ch, address);
        } else {
            ch.pipeline().get(PodHandler.class).attach(null);
            ch.close();
        }
        if (whole) {
            ByteBuf b = held;
            held = null;
            if (modelBack != null) {
                byte[] all = ByteBufUtil.getBytes(b);
                b.release();
                b = Unpooled.wrappedBuffer(modelBack.whole(all));
            }
            responseHeaders.setInt(HttpHeaderNames.CONTENT_LENGTH, b.readableBytes());
            responding = true;
            write(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, responseStatus, b, responseHeaders,
                    EmptyHttpHeaders.INSTANCE));
        } else {
            ByteBuf rest = last.content();
            if (modelBack != null && !bodiless) {
                ByteBuf out = rest.isReadable() ? modelBack(rest) : Unpooled.EMPTY_BUFFER;
                rest = Unpooled.wrappedBuffer(out, Unpooled.wrappedBuffer(modelBack.end()));
                write(rest.isReadable() ? new DefaultLastHttpContent(rest) : LastHttpContent.EMPTY_LAST_CONTENT);
            } else {
                write(bodiless || !rest.isReadable() ? LastHttpContent.EMPTY_LAST_CONTENT
                        : new DefaultLastHttpContent(rest.retain()));
            }
        }
        endDispatch(Outcome.Cause.NATURAL);
        finish();
    }

    @Override
    public void podGone(Throwable cause) {
        if (state != State.SENT) {
            return;
        }
        cancelTimeout();
        Channel ch = channel;
        channel = null;
        if (ch != null) {
            ch.close();
        }
        if (!heard) {
            if (pooled && !replacedStale) {
                // The pod had closed this kept connection while it was idle: it never saw the request.
                replacedStale = true;
                state = State.CONNECTING;
                px.pods().open(loop, address, this);
                return;
            }
            unreached();
            return;
        }
        cutShort(null);
    }

    /**
     * The pod stopped mid-response (or a response hook failed on it), or stalled: {@code stalled} says how, null when
     * it stopped.
     */
    private void cutShort(String stalled) {
        dropChannel();
        long got = held == null ? -1 : held.readableBytes();
        if (held != null) {
            held.release();
            held = null;
        }
        if (!responding) {
            respond(stalled != null ? OpenAiError.timeout(stalled) : OpenAiError.badGateway(got >= 0
                    ? "The model server stopped after " + got + " of " + length + " bytes."
                    : "The model server's response could not be relayed."));
        } else if (sse) {
            write(new DefaultLastHttpContent(Unpooled.wrappedBuffer(Responses.sseError(stalled != null ? stalled
                    : "The model server stopped mid-stream."))));
        } else {
            ctx.close(); // a body cut short: the client must see it cut, not complete
        }
        endDispatch(Outcome.Cause.ERROR);
        finish();
    }

    private static final OpenAiError EVICTED = OpenAiError.rateLimited("request evicted by flow control");

    /**
     * Flow control evicted this dispatched request for a more important one: the pod's connection is closed (which
     * aborts it there) and the client told, a 429 ({@code evicted}) if nothing was answered yet, else an error event
     * ending the stream, else a cut body.
     */
    private void evicted() {
        if (state == State.DONE || clientGone) {
            return;
        }
        if (state != State.SENT) {
            evictPending = true; // deciding or connecting: the step under way ends it
            return;
        }
        dropChannel();
        if (held != null) {
            held.release();
            held = null;
        }
        if (!responding) {
            respond(EVICTED, SchedulingException.EVICTED);
        } else if (sse) {
            write(new DefaultLastHttpContent(Unpooled.wrappedBuffer(Responses.sseError(EVICTED))));
        } else {
            ctx.close();
        }
        endDispatch(Outcome.Cause.ERROR);
        finish();
    }

    /** The client's connection closed: the pod's is closed too, which aborts the request there. */
    void clientGone() {
        if (clientGone || state == State.DONE) {
            return;
        }
        clientGone = true;
        if (state == State.QUEUED) {
            ticket.cancel(); // it leaves the queue; its waiter ends the exchange (or, just admitted, the decision does)
            return;
        }
        if (state == State.SENT) {
            dropChannel();
            endDispatch(Outcome.Cause.CLIENT_DISCONNECT);
            finish();
        }
        // deciding or connecting: the step under way sees the flag and ends the exchange
    }

    /** The client can take more: the pod's connection is read again. */
    void clientWritable() {
        Channel ch = channel;
        if (ch != null && !ch.config().isAutoRead()) {
            ch.config().setAutoRead(true);
        }
    }

    private void write(Object message) {
        ctx.writeAndFlush(message).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        Channel ch = channel;
        if (ch != null && !ctx.channel().isWritable()) {
            ch.config().setAutoRead(false); // the client reads slower than the pod writes: stop reading the pod
        }
    }

    /** Answers with an error, unless a response has begun (then the connection is closed: nothing more can be said). */
    private void respond(OpenAiError error) {
        respond(error, null);
    }

    /** @param droppedReason llm-d's {@code x-llm-d-request-dropped-reason}, sent with the error when not null */
    private void respond(OpenAiError error, String droppedReason) {
        status = error.status();
        if (!started) {
            px.metrics().rejected("", status);
        }
        if (responding) {
            ctx.close();
            return;
        }
        responding = true;
        FullHttpResponse r = Responses.error(error);
        if (droppedReason != null) {
            r.headers().set(GatewayHeaders.REQUEST_DROPPED_REASON, droppedReason);
        }
        write(r);
    }

    private void dropChannel() {
        cancelTimeout();
        Channel ch = channel;
        channel = null;
        if (ch != null) {
            ch.pipeline().get(PodHandler.class).attach(null);
            ch.close();
        }
    }

    private void cancelTimeout() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    /**
     * The idle timeout between the body's bytes: one timer for the whole response, set again for what is left of the
     * wait when bytes came meanwhile (no timer per chunk on the hot path).
     */
    private void idleCheck() {
        timer = null;
        if (state != State.SENT) {
            return;
        }
        long waited = px.ticker().nanos() - lastHeard;
        long idle = TimeUnit.MILLISECONDS.toNanos(px.idleTimeoutMillis());
        if (waited < idle) {
            timer = loop.schedule(this::idleCheck, idle - waited, TimeUnit.NANOSECONDS);
            return;
        }
        px.health().ejections().failed(pod.name());
        cutShort(pod.name() + " sent nothing for " + px.idleTimeoutMillis() + " ms mid-response.");
    }

    private void endDispatch(Outcome.Cause cause) {
        Dispatch d = dispatch;
        dispatch = null;
        if (d == null) {
            return;
        }
        try {
            Usage u = usage == null ? Usage.UNKNOWN : usage.usage();
            d.complete(new Outcome(cause, status, u.promptTokens(), u.completionTokens(), u.cachedTokens()));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "a completion hook failed", e);
        } finally {
            try {
                d.close();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "a completion hook failed", e);
            }
        }
    }

    private void finish() {
        if (state == State.DONE) {
            return;
        }
        state = State.DONE;
        cancelTimeout();
        if (ticket != null) {
            ticket.end();
        }
        px.retries().ended(retriesHeld);
        retriesHeld = 0;
        if (held != null) {
            held.release();
            held = null;
        }
        if (started) {
            Usage u = usage == null ? Usage.UNKNOWN : usage.usage();
            px.metrics().requestEnded(request.model(), request.targetModel(), status,
                    (px.ticker().nanos() - start) / 1e9, u.promptTokens(), u.completionTokens(), u.cachedTokens());
        }
        client.exchangeDone(this);
    }
}
