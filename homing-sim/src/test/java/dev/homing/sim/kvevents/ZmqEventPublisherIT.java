package dev.homing.sim.kvevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.homing.protocol.kvevents.AllBlocksCleared;
import dev.homing.protocol.kvevents.BlockRemoved;
import dev.homing.protocol.kvevents.EventBlockHash;
import dev.homing.protocol.kvevents.KvEventBatch;
import dev.homing.protocol.kvevents.KvEventDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/** The publisher against real JeroMQ sockets on 127.0.0.1: frames, both connection directions, replay, drops. */
class ZmqEventPublisherIT {

    private final ZContext client = new ZContext();
    private final List<ZmqEventPublisher> publishers = new ArrayList<>();

    @AfterEach
    void close() {
        publishers.forEach(ZmqEventPublisher::close);
        client.close();
    }

    private ZmqEventPublisher start(KvEventsConfig config) {
        ZmqEventPublisher p = ZmqEventPublisher.start(config, "test-publisher");
        publishers.add(p);
        return p;
    }

    /** A client socket that, like the publisher's, redials when JeroMQ stalls a handshake (see ZmqEventPublisher). */
    private ZMQ.Socket socket(SocketType type) {
        ZMQ.Socket s = client.createSocket(type);
        s.setHandshakeIvl(1000);
        return s;
    }

    private static KvEventBatch batch(long hash) {
        return new KvEventBatch(1.5, List.of(BlockRemoved.gpu(EventBlockHash.ofUint64(hash))), 0);
    }

    /** Offers batches until {@code sub} gets one (PUB drops until the subscription arrives); returns its frames. */
    private static List<byte[]> warmUp(ZmqEventPublisher p, ZMQ.Socket sub, long[] seq) {
        sub.setReceiveTimeOut(50);
        for (int i = 0; i < 200; i++) {
            p.offer(seq[0]++, batch(i));
            byte[] first = sub.recv();
            if (first != null) {
                List<byte[]> frames = new ArrayList<>();
                frames.add(first);
                while (sub.hasReceiveMore()) {
                    frames.add(sub.recv());
                }
                return frames;
            }
        }
        throw new AssertionError("the subscriber never received a message");
    }

    private static List<byte[]> receive(ZMQ.Socket socket) {
        socket.setReceiveTimeOut(5000);
        List<byte[]> frames = new ArrayList<>();
        byte[] f = socket.recv();
        assertThat(f).as("a message within 5 s").isNotNull();
        frames.add(f);
        while (socket.hasReceiveMore()) {
            frames.add(socket.recv());
        }
        return frames;
    }

    @Test
    void bindsAWildcardEndpointAndSendsThreeFrames() throws Exception {
        KvEventsConfig config = KvEventsConfig.zmq("tcp://127.0.0.1:*").withTopic("kv@pod-a@model");
        ZmqEventPublisher p = start(config);
        assertThat(p.endpoint()).matches("tcp://127\\.0\\.0\\.1:\\d+");

        ZMQ.Socket sub = socket(SocketType.SUB);
        sub.subscribe("kv@".getBytes(StandardCharsets.UTF_8));
        sub.connect(p.endpoint());
        long[] seq = {0};
        List<byte[]> frames = warmUp(p, sub, seq);

        assertThat(frames).hasSize(3);
        assertThat(new String(frames.get(0), StandardCharsets.UTF_8)).isEqualTo("kv@pod-a@model");
        assertThat(frames.get(1)).hasSize(8);
        long first = ByteBuffer.wrap(frames.get(1)).getLong();
        assertThat(first).isBetween(0L, seq[0] - 1);

        p.offer(seq[0]++, new KvEventBatch(2.5, List.of(AllBlocksCleared.INSTANCE), 0));
        List<byte[]> next;
        do {
            next = receive(sub);
        } while (ByteBuffer.wrap(next.get(1)).getLong() < seq[0] - 1);
        assertThat(ByteBuffer.wrap(next.get(1)).getLong()).isEqualTo(seq[0] - 1);
        assertThat(KvEventDecoder.decode(next.get(2)).batch())
                .isEqualTo(new KvEventBatch(2.5, List.of(AllBlocksCleared.INSTANCE), 0));
    }

    @Test
    void connectsToASubscriberThatBinds() {
        ZMQ.Socket sub = socket(SocketType.SUB);
        sub.subscribe(new byte[0]);
        int port = sub.bindToRandomPort("tcp://127.0.0.1");
        ZmqEventPublisher p = start(KvEventsConfig.zmq("tcp://127.0.0.1:" + port));
        assertThat(ZmqEndpoints.binds(p.endpoint())).isFalse();

        List<byte[]> frames = warmUp(p, sub, new long[] {0});

        assertThat(frames).hasSize(3);
        assertThat(frames.get(0)).isEmpty(); // vLLM's default topic
    }

    @Test
    void replayAnswersFromTheBufferThenTheEndMarker() throws Exception {
        ZmqEventPublisher p = start(KvEventsConfig.zmq("tcp://127.0.0.1:*").withReplayEndpoint("tcp://127.0.0.1:*")
                .withBufferSteps(3));
        for (int i = 0; i < 5; i++) {
            assertThat(p.offer(i, batch(100 + i))).isTrue();
        }
        ZMQ.Socket dealer = socket(SocketType.DEALER);
        dealer.connect(p.replayEndpoint());

        List<Long> seqs = new ArrayList<>();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (seqs.size() < 3 && System.nanoTime() < deadline) {
            // Until all five are published, the buffer may hold fewer: ask again.
            seqs.clear();
            dealer.sendMore(new byte[0]);
            dealer.send(ZmqEventPublisher.seqBytes(0), 0);
            while (true) {
                List<byte[]> reply = receive(dealer);
                assertThat(reply).hasSize(3);
                assertThat(reply.get(0)).isEmpty();
                if (Arrays.equals(reply.get(1), ZmqEventPublisher.END_SEQ)) {
                    assertThat(reply.get(2)).isEmpty();
                    break;
                }
                long seq = ByteBuffer.wrap(reply.get(1)).getLong();
                assertThat(KvEventDecoder.decode(reply.get(2)).batch()).isEqualTo(batch(100 + seq));
                seqs.add(seq);
            }
        }
        assertThat(seqs).containsExactly(2L, 3L, 4L);

        dealer.sendMore(new byte[0]);
        dealer.send(ZmqEventPublisher.seqBytes(4), 0);
        assertThat(ByteBuffer.wrap(receive(dealer).get(1)).getLong()).isEqualTo(4);
        assertThat(receive(dealer).get(1)).isEqualTo(ZmqEventPublisher.END_SEQ);
        assertThat(p.replayRequests()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void aFullQueueDropsBatchesAndLeavesAGapInTheSequence() throws Exception {
        KvEventsConfig config = KvEventsConfig.zmq("tcp://127.0.0.1:*").withReplayEndpoint("tcp://127.0.0.1:*")
                .withMaxQueueSize(2);
        ZmqEventPublisher p = ZmqEventPublisher.startPaused(config);
        publishers.add(p);
        StepBatcher batcher = new StepBatcher(config, Clock.systemUTC(), p);
        for (int i = 0; i < 3; i++) {
            batcher.onAllBlocksCleared();
            batcher.onSchedulerStep(i);
        }
        assertThat(batcher.droppedBatches()).isEqualTo(1);
        p.resume();
        await().atMost(Duration.ofSeconds(10)).until(() -> p.publishedBatches() == 2);
        batcher.onAllBlocksCleared();
        batcher.onSchedulerStep(3);

        ZMQ.Socket dealer = socket(SocketType.DEALER);
        dealer.connect(p.replayEndpoint());
        List<Long> seqs = new ArrayList<>();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (seqs.size() < 3 && System.nanoTime() < deadline) {
            seqs.clear();
            dealer.sendMore(new byte[0]);
            dealer.send(ZmqEventPublisher.seqBytes(0), 0);
            for (List<byte[]> r = receive(dealer); !Arrays.equals(r.get(1), ZmqEventPublisher.END_SEQ);
                    r = receive(dealer)) {
                seqs.add(ByteBuffer.wrap(r.get(1)).getLong());
            }
        }
        assertThat(seqs).containsExactly(0L, 1L, 3L);
        assertThat(p.publishedBatches()).isEqualTo(3);
    }

    @Test
    void liveFaultsLoseAndReorderTheLiveStreamOnlyAndReplayHasEveryBatchInSequence() throws Exception {
        ZmqEventPublisher p = start(KvEventsConfig.zmq("tcp://127.0.0.1:*").withReplayEndpoint("tcp://127.0.0.1:*"));
        ZMQ.Socket sub = socket(SocketType.SUB);
        sub.subscribe(new byte[0]);
        sub.connect(p.endpoint());
        long[] seq = {0};
        warmUp(p, sub, seq);
        long from = seq[0];
        // counting from `from`: batches 1 and 6 lost, 3 and 8 held back
        LiveFaults faults = LiveFaults.dropEvery(5, 1).or(LiveFaults.holdEvery(5, 3));
        p.faults(seqNo -> seqNo < from ? LiveFaults.Fate.SEND : faults.fate(seqNo - from));
        for (int i = 0; i < 10; i++) {
            p.offer(seq[0]++, batch(i));
        }
        List<Long> live = new ArrayList<>();
        while (live.size() < 8) {
            long s = ByteBuffer.wrap(receive(sub).get(1)).getLong();
            if (s >= from) {
                live.add(s);
            }
        }
        List<Long> expected = new ArrayList<>();
        Long heldBack = null;
        for (long s = from; s < from + 10; s++) {
            if ((s - from) % 5 == 1) {
                continue;
            }
            if ((s - from) % 5 == 3) {
                heldBack = s;
                continue;
            }
            expected.add(s);
            if (heldBack != null) { // it comes after the one that follows it
                expected.add(heldBack);
                heldBack = null;
            }
        }
        assertThat(live).containsExactlyElementsOf(expected);
        assertThat(p.liveDropped()).isEqualTo(2);
        assertThat(p.liveReordered()).isEqualTo(2);

        ZMQ.Socket dealer = socket(SocketType.DEALER);
        dealer.connect(p.replayEndpoint());
        dealer.sendMore(new byte[0]);
        dealer.send(ZmqEventPublisher.seqBytes(from), 0);
        List<Long> replayed = new ArrayList<>();
        for (List<byte[]> r = receive(dealer); !Arrays.equals(r.get(1), ZmqEventPublisher.END_SEQ);
                r = receive(dealer)) {
            replayed.add(ByteBuffer.wrap(r.get(1)).getLong());
        }
        assertThat(replayed).containsExactly(from, from + 1, from + 2, from + 3, from + 4, from + 5, from + 6,
                from + 7, from + 8, from + 9);
    }

    @Test
    void anUnusableEndpointFailsAtStart() {
        assertThatThrownBy(() -> start(KvEventsConfig.zmq("tcp://127.0.0.1:notaport*")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("tcp://127.0.0.1:notaport*");
    }
}
