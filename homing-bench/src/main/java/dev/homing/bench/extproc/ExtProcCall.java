package dev.homing.bench.extproc;

import com.google.protobuf.ByteString;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Envoy's side of one ext_proc stream: send the messages of one HTTP request and read what the picker answers, one
 * message at a time. What tests, the ext_proc benchmark and the local gateway stand-in play Envoy with; blocking, so
 * each call sits on its own (virtual) thread.
 */
public final class ExtProcCall implements AutoCloseable {

    private final BlockingQueue<ProcessingResponse> responses = new LinkedBlockingQueue<>();
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile ClientCallStreamObserver<ProcessingRequest> requests;
    private volatile Throwable error;

    private ExtProcCall(Channel channel) {
        ExternalProcessorGrpc.newStub(channel).process(new ClientResponseObserver<ProcessingRequest, ProcessingResponse>() {
            @Override
            public void beforeStart(ClientCallStreamObserver<ProcessingRequest> r) {
                requests = r;
            }

            @Override
            public void onNext(ProcessingResponse value) {
                responses.add(value);
            }

            @Override
            public void onError(Throwable t) {
                error = t;
                ended.countDown();
            }

            @Override
            public void onCompleted() {
                ended.countDown();
            }
        });
    }

    public static ExtProcCall open(Channel channel) {
        return new ExtProcCall(channel);
    }

    /** A channel to a picker on 127.0.0.1. */
    public static ManagedChannel channel(int port, boolean tls) {
        return channel("127.0.0.1", port, tls);
    }

    /**
     * A channel to a picker; with {@code tls}, trusting any certificate, as an Envoy cluster with a TLS transport
     * socket and no validation context does (how gateways reach llm-d's self-signed picker).
     */
    public static ManagedChannel channel(String host, int port, boolean tls) {
        NettyChannelBuilder b = !tls ? NettyChannelBuilder.forAddress(host, port).usePlaintext()
                : NettyChannelBuilder.forAddress(host, port, TlsChannelCredentials.newBuilder()
                        .trustManager(InsecureTrustManagerFactory.INSTANCE.getTrustManagers()).build());
        // The stream's callbacks only queue what arrives: they run on the transport thread, with no hand-off.
        return b.directExecutor().build();
    }

    public ExtProcCall send(ProcessingRequest r) {
        requests.onNext(r);
        return this;
    }

    /** The picker's next message (fails after 15 s, or as soon as the stream has ended without one). */
    public ProcessingResponse next() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (true) {
            ProcessingResponse r = poll(50);
            if (r != null) {
                return r;
            }
            if (ended.getCount() == 0 && responses.isEmpty()) {
                throw new IllegalStateException("the picker ended the stream" + (error != null ? ": " + error : ""));
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the picker sent nothing within 15 s");
            }
        }
    }

    /** The next message within {@code millis}, or null. */
    public ProcessingResponse poll(long millis) {
        try {
            return responses.poll(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Reads request-body answers until one ends the body; their bodies, joined. */
    public List<ProcessingResponse> bodyUntilEnd(boolean request) {
        List<ProcessingResponse> out = new ArrayList<>();
        while (true) {
            ProcessingResponse r = next();
            out.add(r);
            var b = request ? r.getRequestBody() : r.getResponseBody();
            if (b.getResponse().getBodyMutation().getStreamedResponse().getEndOfStream()) {
                return out;
            }
        }
    }

    public static ByteString joined(List<ProcessingResponse> pieces, boolean request) {
        ByteString all = ByteString.EMPTY;
        for (ProcessingResponse r : pieces) {
            var b = request ? r.getRequestBody() : r.getResponseBody();
            all = all.concat(b.getResponse().getBodyMutation().getStreamedResponse().getBody());
        }
        return all;
    }

    /** Envoy is done sending: the stream's request half ends. */
    public void halfClose() {
        requests.onCompleted();
    }

    public void cancel() {
        requests.cancel("client went away", null);
    }

    /** Whether the picker ended the stream within {@code millis}. */
    public boolean awaitEnd(long millis) {
        try {
            return ended.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public Throwable error() {
        return error;
    }

    @Override
    public void close() {
        if (ended.getCount() > 0) {
            try {
                requests.cancel("test over", null);
            } catch (RuntimeException ignored) {
                // already ended
            }
        }
    }
}
