package dev.homing.router.proxy;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The API port's event loops and the channel types that go with them: Linux's epoll where Netty's native transport
 * loads, the JDK's NIO elsewhere. Epoll also tells a client's hang-up while the router is not reading from it (it
 * reads one request at a time), so a stream's pod is let go the moment its client leaves.
 */
final class EventLoops {

    private static final boolean EPOLL = Epoll.isAvailable();

    private EventLoops() {
    }

    static EventLoopGroup group(int threads, String name) {
        IoHandlerFactory io = EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), io);
    }

    static Class<? extends ServerChannel> serverChannel() {
        return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    static Class<? extends Channel> channel() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }
}
