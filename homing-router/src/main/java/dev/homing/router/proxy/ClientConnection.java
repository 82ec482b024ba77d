package dev.homing.router.proxy;

import dev.homing.protocol.openai.OpenAiError;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A client's connection to the API port: its requests one at a time, each read whole (bounded) and then answered here
 * (models, health, a 404 or 405) or forwarded as an {@link Exchange}. The connection is read all along (so a client
 * that leaves is seen at once, and reading costs no system call to switch on and off for each request); what arrives
 * while a response is under way (a pipelining client's next requests) waits, in order, and stops the reading until
 * that response has ended: no more than one read's worth is held here.
 */
final class ClientConnection extends ChannelInboundHandlerAdapter {

    private static final int SCRATCH = 8 * 1024;

    private final ProxyContext px;
    private final ModelsHandler models;
    private ChannelHandlerContext ctx;

    private ApiRoutes.Route route;
    private HttpRequest head;
    /** The request's path (its target without the query), read once from the head. */
    private String path;
    private RequestBody body;
    private boolean refused;
    private Exchange exchange;
    private byte[] scratch;
    /**
     * What one read decoded past the request being answered (a pipelining client's next requests): held until that
     * response ends. Bounded by the reads asked for: none is, while an exchange runs.
     */
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();

    ClientConnection(ProxyContext px, ModelsHandler models) {
        this.px = px;
        this.models = models;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
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
        if (req.decoderResult().isFailure()) {
            refuse(OpenAiError.badRequest("Malformed request: " + req.decoderResult().cause().getMessage(), null));
            return;
        }
        head = req;
        path = ApiRoutes.path(req.uri());
        route = ApiRoutes.route(req.method().name(), path);
        if (route.kind() == ApiRoutes.Kind.FORWARD) {
            long declared = HttpUtil.getContentLength(req, -1L);
            if (declared > px.intake().maxBodyBytes()) {
                refuse(OpenAiError.payloadTooLarge(px.intake().maxBodyBytes()));
                return;
            }
            body = new RequestBody(declared, px.intake().maxBodyBytes());
        }
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
        switch (route.kind()) {
            case FORWARD -> {
                byte[] bytes = body.bytes();
                body = null;
                exchange = new Exchange(px, this, ctx, route.api(), req.method().name(), target(req.uri(), path),
                        path, headers(req), bytes);
                exchange.start(); // may end at once (a refusal) and read the next request before returning
            }
            case MODELS -> answer(Responses.json(200, models.json()));
            case HEALTH -> answer(Responses.empty(200));
            case METHOD_NOT_ALLOWED -> answer(Responses.error(OpenAiError.methodNotAllowed(req.method().name(), path)));
            case NOT_FOUND -> answer(Responses.error(OpenAiError.notFound("Unknown path " + path, null)));
        }
    }

    /** The request target for the pod: origin form, as a client sent it or cut from an absolute form. */
    private static String target(String uri, String path) {
        if (uri.startsWith("/")) {
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
        ctx.writeAndFlush(Responses.error(error)).addListener(ChannelFutureListener.CLOSE);
    }

    /** The exchange's response has ended: the next request is taken, from what was read already or the socket. */
    void exchangeDone(Exchange done) {
        if (exchange != done) {
            return;
        }
        exchange = null;
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
