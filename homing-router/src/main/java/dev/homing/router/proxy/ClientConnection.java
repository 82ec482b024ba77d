package dev.homing.router.proxy;

import dev.homing.protocol.openai.OpenAiError;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A client's connection to the API port: its requests one at a time, each read whole (bounded) and then answered here
 * (models, health, a 404 or 405) or forwarded as an {@link Exchange}. The connection is read all along (so a client
 * that leaves is seen at once, and reading costs no system call to switch on and off for each request); what arrives
 * while a response is under way (a pipelining client's next requests) waits, in order, and stops the reading until
 * that response has ended: no more than one read's worth is held here.
 */
final class ClientConnection extends ChannelInboundHandlerAdapter {

    private static final int SCRATCH = 8 * 1024;
    /** How long a refused client's remaining bytes are read and dropped before the connection closes. */
    private static final long LINGER_MILLIS = 2000;
    /** Asked of a connection when its port drains: it closes now if idle, else once its response has ended. */
    static final Object DRAIN = new Object();

    private final ProxyContext px;
    private final ModelsHandler models;
    /** Null without a request-read timeout; looked up once, not in the pipeline on every request. */
    private RequestDeadline deadline;
    private ChannelHandlerContext ctx;

    private ApiRoutes.Route route;
    private HttpRequest head;
    /** The request's path (its target without the query), read once from the head. */
    private String path;
    private RequestBody body;
    private boolean refused;
    /** The path was percent-decoded or had dot segments removed: the pod is sent the path as judged. */
    private boolean normalized;
    /** The answer to give once the request's body has been read, instead of taking it; null to take it. */
    private FullHttpResponse afterBody;
    private Exchange exchange;
    private byte[] scratch;
    /**
     * What one read decoded past the request being answered (a pipelining client's next requests): held until that
     * response ends. Bounded by the reads asked for: none is, while an exchange runs.
     */
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    /** The port is draining: no request after the one under way. */
    private boolean closing;

    ClientConnection(ProxyContext px, ModelsHandler models) {
        this.px = px;
        this.models = models;
    }

    /** The connection's request-read timer, told as each request has been read whole; set once, before any read. */
    void timedBy(RequestDeadline deadline) {
        this.deadline = deadline;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof LastHttpContent && deadline != null) {
            deadline.requestRead(); // whole: the client is no longer timed
        }
        if (refused) {
            ReferenceCountUtil.release(msg);
        } else if (exchange != null || !waiting.isEmpty()) {
            // a pipelined request: taken once the response before it has ended; nothing more is read meanwhile
            waiting.add(msg);
            ctx.channel().config().setAutoRead(false);
        } else {
            handle(msg);
        }
    }

    private void handle(Object msg) {
        try {
            if (msg instanceof HttpRequest req) {
                onHead(req);
            }
            if (msg instanceof HttpContent c && !refused) {
                onContent(c);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void onHead(HttpRequest req) {
        OpenAiError bad = HeadChecks.refusal(req);
        if (bad != null) {
            refuse(bad);
            return;
        }
        String raw = ApiRoutes.path(req.uri());
        path = ApiRoutes.normalize(raw);
        if (path == null) {
            refuse(OpenAiError.badRequest("The request's path has a broken percent-encoding.", null));
            return;
        }
        head = req;
        normalized = !path.equals(raw);
        route = ApiRoutes.route(req.method().name(), path);
        if (route.kind() == ApiRoutes.Kind.FORWARD) {
            long declared = HttpUtil.getContentLength(req, -1L);
            if (declared > px.intake().maxBodyBytes()) {
                refuse(OpenAiError.payloadTooLarge(px.intake().maxBodyBytes()));
                return;
            }
            body = new RequestBody(declared, px.intake().maxBodyBytes());
        }
        afterBody = refusalAfterBody(req);
        String expect = req.headers().get(HttpHeaderNames.EXPECT);
        if (expect != null && !HttpUtil.is100ContinueExpected(req)) {
            refuse(new OpenAiError(417, "BadRequestError", "Only 'Expect: 100-continue' is understood.", null));
        } else if (HttpUtil.is100ContinueExpected(req)) {
            if (afterBody != null) {
                // answered now rather than inviting a body only to refuse it; what the client sends next is unknown
                refused = true;
                ctx.writeAndFlush(afterBody).addListener(ChannelFutureListener.CLOSE);
            } else { // only now, past every check: a client told to go on with 3 GB is not then refused
                ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE,
                        Unpooled.EMPTY_BUFFER));
            }
        }
    }

    /**
     * The answer to a request that is framed soundly but not taken, given once its body has been read (dropped, within
     * the size limit) so the connection stays usable: no or a wrong API key (401), a content coding the router does
     * not decode (415); null for none.
     */
    private FullHttpResponse refusalAfterBody(HttpRequest req) {
        ApiRoutes.Kind kind = route.kind();
        if ((kind == ApiRoutes.Kind.FORWARD || kind == ApiRoutes.Kind.MODELS)
                && !px.access().admits(req.headers().get(HttpHeaderNames.AUTHORIZATION))) {
            FullHttpResponse r = Responses.error(OpenAiError.unauthorized(
                    "Incorrect or missing API key: send it as 'Authorization: Bearer <key>'."));
            r.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer");
            return r;
        }
        OpenAiError unreadable = kind == ApiRoutes.Kind.FORWARD ? HeadChecks.unreadable(req) : null;
        return unreadable == null ? null : Responses.error(unreadable);
    }

    private void onContent(HttpContent c) {
        if (c.decoderResult().isFailure()) {
            refuse(OpenAiError.badRequest("Malformed request body: " + c.decoderResult().cause().getMessage(), null));
            return;
        }
        if (body != null && !body.add(c.content())) {
            refuse(OpenAiError.payloadTooLarge(px.intake().maxBodyBytes()));
            return;
        }
        if (!(c instanceof LastHttpContent)) {
            return;
        }
        HttpRequest req = head;
        head = null;
        if (afterBody != null) {
            FullHttpResponse r = afterBody;
            afterBody = null;
            body = null;
            px.metrics().rejected("", r.status().code());
            answer(r);
            return;
        }
        switch (route.kind()) {
            case FORWARD -> {
                byte[] bytes = body.bytes();
                body = null;
                exchange = new Exchange(px, this, ctx, route.api(), req.method().name(),
                        target(req.uri(), path, normalized), path, headers(req), bytes);
                exchange.start(); // may end at once (a refusal) and read the next request before returning
            }
            case MODELS -> answer(Responses.json(200, models.json()));
            case HEALTH -> answer(Responses.empty(200));
            case METHOD_NOT_ALLOWED -> {
                FullHttpResponse r = Responses.error(OpenAiError.methodNotAllowed(req.method().name(), path));
                r.headers().set(HttpHeaderNames.ALLOW, "POST"); // the API's paths take POST alone (RFC 9110 §15.5.6)
                answer(r);
            }
            case NOT_FOUND -> answer(Responses.error(OpenAiError.notFound("Unknown path " + path, null)));
        }
    }

    /**
     * The request target for the pod: origin form, as a client sent it, or cut from an absolute form, or with the path
     * as it was judged when it had to be normalized (the pod then acts on just what was judged).
     */
    private static String target(String uri, String path, boolean normalized) {
        if (uri.startsWith("/") && !normalized) {
            return uri;
        }
        int q = uri.indexOf('?');
        return q < 0 ? path : path + uri.substring(q);
    }

    /** The client's headers, names lower-cased, repeated ones joined by commas (RFC 9110 5.3). */
    private static Map<String, String> headers(HttpRequest req) {
        Map<String, String> out = new HashMap<>(Math.max(16, req.headers().size() * 2));
        for (Map.Entry<String, String> h : req.headers()) {
            out.merge(h.getKey().toLowerCase(Locale.ROOT), h.getValue(), (a, b) -> a + "," + b);
        }
        return out;
    }

    private void answer(FullHttpResponse response) {
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    }

    /**
     * Answers a request that will not be read to its end (too large, malformed) and closes the connection after: what
     * is left of its body cannot be told from a next request.
     */
    private void refuse(OpenAiError error) {
        refused = true;
        body = null;
        head = null;
        px.metrics().rejected("", error.status());
        FullHttpResponse r = Responses.error(error);
        // said, so that no client puts this connection back in its pool and sends its next request into the close
        r.headers().set(HttpHeaderNames.CONNECTION, "close");
        ctx.writeAndFlush(r).addListener(f -> lingeringClose());
    }

    /**
     * Closes in stages (RFC 9112 §9.6): the router's side first, then the rest after {@link #LINGER_MILLIS} or when the
     * client closes. A client still sending the body being refused would otherwise meet a reset, which may discard the
     * answer before it reads it; what arrives meanwhile is dropped.
     */
    private void lingeringClose() {
        Channel ch = ctx.channel();
        if (!(ch instanceof DuplexChannel duplex) || !ch.isActive()) {
            ch.close();
            return;
        }
        duplex.shutdownOutput().addListener(f -> ch.eventLoop().schedule(() -> {
            ch.close();
        }, LINGER_MILLIS, TimeUnit.MILLISECONDS));
    }

    /** The exchange's response has ended: the next request is taken, from what was read already or the socket. */
    void exchangeDone(Exchange done) {
        if (exchange != done) {
            return;
        }
        exchange = null;
        if (closing || px.draining().getAsBoolean()) {
            closeAfterWrites();
            return;
        }
        while (exchange == null && !refused && !waiting.isEmpty()) {
            handle(waiting.poll());
        }
        if (exchange == null && !refused && !ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    /** A buffer for reading direct bytes as an array (usage, response hooks); one per connection, reused. */
    byte[] scratch() {
        if (scratch == null) {
            scratch = new byte[SCRATCH];
        }
        return scratch;
    }

    /**
     * The client sent too slowly: no whole request within the request-read timeout. Answered 408 and closed, unless a
     * response is under way (a pipelined request trickling in behind it): then asked again later.
     */
    boolean readTimedOut() {
        if (exchange != null || !waiting.isEmpty()) {
            return false;
        }
        refuse(new OpenAiError(408, "BadRequestError",
                "The request was not received whole within the request-read timeout.", null));
        return true;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt != DRAIN) {
            ctx.fireUserEventTriggered(evt);
            return;
        }
        closing = true;
        if (exchange == null && head == null && waiting.isEmpty()) {
            closeAfterWrites(); // idle between requests: nothing is lost
        }
    }

    private void closeAfterWrites() {
        refused = true;
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (exchange != null && ctx.channel().isWritable()) {
            exchange.clientWritable();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        refused = true; // nothing more is taken
        waiting.forEach(ReferenceCountUtil::release);
        waiting.clear();
        Exchange e = exchange;
        exchange = null;
        if (e != null) {
            e.clientGone();
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof IOException)) { // a reset by the client is no news
            System.getLogger(ClientConnection.class.getName()).log(System.Logger.Level.WARNING,
                    "closing a client connection", cause);
        }
        ctx.close();
    }
}
