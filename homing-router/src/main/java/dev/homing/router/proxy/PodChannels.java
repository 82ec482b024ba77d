package dev.homing.router.proxy;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Kept-alive HTTP/1.1 connections to the pods, kept per event loop: an exchange borrows one on the loop of its
 * client's connection, so both ends of it run on one thread and nothing here locks. Bounded: at most
 * {@code maxIdlePerPod} idle connections per pod on each loop, each closed after {@code idleTimeout} unused (under
 * vLLM's own keep-alive, so the router lets a connection go before the pod does), and a pod's closed as it leaves the
 * pool.
 */
final class PodChannels implements AutoCloseable {

    /** What a borrow comes to: a connection, or why none could be opened. */
    interface Borrowed {
        /** @param pooled a kept connection (which the pod may have closed meanwhile), not a new one */
        void borrowed(Channel channel, boolean pooled);

        void failed(Throwable cause);
    }

    private static final long SWEEP_MILLIS = 1000;
    private static final int MAX_RESPONSE_HEAD = 64 * 1024;

    private final int connectTimeoutMillis;
    private final int maxIdlePerPod;
    private final long idleNanos;
    private final LongSupplier nanos;
    private final Map<EventLoop, LoopPool> loops = new ConcurrentHashMap<>();

    PodChannels(Duration connectTimeout, int maxIdlePerPod, Duration idleTimeout, LongSupplier nanos) {
        this.connectTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis());
        this.maxIdlePerPod = maxIdlePerPod;
        this.idleNanos = idleTimeout.toNanos();
        this.nanos = nanos;
    }

    /** Borrows a connection to {@code address} ({@code host:port}) on {@code loop}; call on that loop. */
    void borrow(EventLoop loop, String address, Borrowed then) {
        Channel kept = loops.computeIfAbsent(loop, LoopPool::new).poll(address);
        if (kept != null) {
            then.borrowed(kept, true);
            return;
        }
        open(loop, address, then);
    }

    /** Opens a new connection (a pooled one turned out closed, say); call on {@code loop}. */
    void open(EventLoop loop, String address, Borrowed then) {
        int colon = address.lastIndexOf(':');
        String host = address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
            then.failed(new IllegalArgumentException("not host:port: " + address));
            return;
        }
        ChannelFuture f = new Bootstrap().group(loop).channel(EventLoops.channel())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpClientCodec(
                                new HttpDecoderConfig().setMaxHeaderSize(MAX_RESPONSE_HEAD), false, false));
                        ch.pipeline().addLast(new PodHandler());
                    }
                })
                .connect(host, port);
        f.addListener((ChannelFuture done) -> {
            if (done.isSuccess()) {
                then.borrowed(done.channel(), false);
            } else {
                then.failed(done.cause());
            }
        });
    }

    /** Gives a connection back whose last response was read to its end; call on its loop. */
    void release(Channel channel, String address) {
        channel.pipeline().get(PodHandler.class).attach(null);
        channel.config().setAutoRead(true);
        if (!channel.isActive() || !loops.computeIfAbsent((EventLoop) channel.eventLoop(), LoopPool::new)
                .offer(address, channel)) {
            channel.close();
        }
    }

    /** Closes the kept connections to a pod that left the pool. */
    void forget(String address) {
        loops.forEach((loop, pool) -> loop.execute(() -> pool.closeAll(address)));
    }

    @Override
    public void close() {
        loops.forEach((loop, pool) -> {
            if (!loop.isShuttingDown()) {
                loop.execute(pool::close);
            }
        });
    }

    private record Idle(Channel channel, long since) {
    }

    /** One loop's kept connections; touched only on that loop. */
    private final class LoopPool {

        private final Map<String, ArrayDeque<Idle>> byPod = new HashMap<>();
        private final ScheduledFuture<?> sweep;

        LoopPool(EventLoop loop) {
            this.sweep = loop.scheduleWithFixedDelay(this::sweep, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
        }

        /** The most recently used live connection (so the least used age out), or null. */
        Channel poll(String address) {
            ArrayDeque<Idle> q = byPod.get(address);
            while (q != null && !q.isEmpty()) {
                Idle i = q.pollLast();
                if (i.channel().isActive()) {
                    return i.channel();
                }
                i.channel().close();
            }
            return null;
        }

        boolean offer(String address, Channel channel) {
            ArrayDeque<Idle> q = byPod.computeIfAbsent(address, a -> new ArrayDeque<>());
            if (q.size() >= maxIdlePerPod) {
                return false;
            }
            q.addLast(new Idle(channel, nanos.getAsLong()));
            return true;
        }

        void sweep() {
            long now = nanos.getAsLong();
            for (Iterator<ArrayDeque<Idle>> it = byPod.values().iterator(); it.hasNext(); ) {
                ArrayDeque<Idle> q = it.next();
                while (!q.isEmpty() && (now - q.peekFirst().since() >= idleNanos
                        || !q.peekFirst().channel().isActive())) {
                    q.pollFirst().channel().close();
                }
                if (q.isEmpty()) {
                    it.remove();
                }
            }
        }

        void closeAll(String address) {
            ArrayDeque<Idle> q = byPod.remove(address);
            if (q != null) {
                q.forEach(i -> i.channel().close());
            }
        }

        void close() {
            sweep.cancel(false);
            byPod.values().forEach(q -> q.forEach(i -> i.channel().close()));
            byPod.clear();
        }
    }
}
