package dev.homing.router.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The time a client has to send a whole request, head and body, from its first byte: a client that trickles a byte
 * now and then (slowloris) holds a connection and its buffers no longer than this. It sits before the HTTP decoder,
 * which shows nothing of a request until its head is whole, so it sees the first raw byte; the connection's handler
 * says when the request has been read ({@link #requestRead}).
 *
 * <p>One timer per connection at most, not one per request: when it fires it looks at when the request being read
 * began and sets itself again for what is left, so a busy keep-alive connection schedules nothing per request.
 */
final class RequestDeadline extends ChannelInboundHandlerAdapter {

    private final long timeoutNanos;
    /** Told the time is up; answers false when it cannot act on it now (a response is under way): asked again later. */
    private final BooleanSupplier timedOut;
    private ChannelHandlerContext ctx;
    /** When the request being read began; -1 when none is. */
    private long since = -1;
    private ScheduledFuture<?> timer;

    RequestDeadline(long timeoutNanos, BooleanSupplier timedOut) {
        this.timeoutNanos = timeoutNanos;
        this.timedOut = timedOut;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (since < 0 && msg instanceof ByteBuf b && b.isReadable()) {
            since = System.nanoTime();
            if (timer == null) {
                timer = ctx.executor().schedule(this::check, timeoutNanos, TimeUnit.NANOSECONDS);
            }
        }
        ctx.fireChannelRead(msg);
    }

    /** The request whose bytes began the wait has been read whole. */
    void requestRead() {
        since = -1;
    }

    private void check() {
        timer = null;
        if (since < 0 || !ctx.channel().isActive()) {
            return;
        }
        long left = since + timeoutNanos - System.nanoTime();
        if (left <= 0 && timedOut.getAsBoolean()) {
            return;
        }
        timer = ctx.executor().schedule(this::check, Math.max(left, TimeUnit.MILLISECONDS.toNanos(100)),
                TimeUnit.NANOSECONDS);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        ctx.fireChannelInactive();
    }
}
