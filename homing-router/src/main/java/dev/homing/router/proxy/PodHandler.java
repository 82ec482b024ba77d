package dev.homing.router.proxy;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpObject;
import io.netty.util.ReferenceCountUtil;

/**
 * The last handler of a pod connection: hands what the pod sends to the exchange the connection carries, and tells it
 * when the connection goes. A pooled connection carries none: a byte then is a pod speaking out of turn, and the
 * connection is closed rather than reused.
 */
final class PodHandler extends ChannelInboundHandlerAdapter {

    private PodListener listener;

    /** @param listener the exchange now carried, or null when the connection goes back to the pool */
    void attach(PodListener listener) {
        this.listener = listener;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            PodListener l = listener;
            if (l != null && msg instanceof HttpObject http) {
                l.podMessage(http);
            } else {
                ctx.close();
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        PodListener l = listener;
        listener = null;
        if (l != null) {
            l.podGone(null);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        PodListener l = listener;
        listener = null;
        ctx.close();
        if (l != null) {
            l.podGone(cause);
        }
    }
}
