package dev.homing.router.precise.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.precise.InMemoryPreciseIndex;
import dev.homing.core.precise.PreciseIndex;
import dev.homing.router.SystemTicker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * A bound subscriber told of a pod while it waits for a message resolves that pod's very next message: a
 * discovered pod publishes as soon as it turns Ready, so its first batch must not be dropped as an unknown pod's
 * because the subscriber read the membership before it began to wait (it waits up to a poll interval).
 */
class CentralSubscriberMembershipIT {

    @Test
    void aPodJoinedDuringTheWaitResolvesItsFirstMessage() throws Exception {
        RecordingObserver observer = new RecordingObserver();
        PreciseIndex index = new InMemoryPreciseIndex(1_000, 16, 0, PreciseIndex.DEFAULT_TIER_WEIGHTS);
        IndexWorkers workers = new IndexWorkers(index, 1, observer, "t");
        try (ZContext context = new ZContext()) {
            CentralSubscriber sub = new CentralSubscriber(context, "tcp://127.0.0.1:*", "kv@", workers, List.of(),
                    List::of, observer, SystemTicker.INSTANCE, Duration.ofSeconds(1), "t");
            try {
                String bound = sub.start();
                // XPUB: its first receive is the subscriber's subscription, so we know the two are joined.
                ZMQ.Socket pub = context.createSocket(SocketType.XPUB);
                pub.connect(bound);
                assertThat(pub.recv(0)).as("the subscription").isNotNull();
                // Let the subscriber settle into a wait (several poll intervals, each begun with the empty pool)...
                Thread.sleep(5 * PodSubscriber.POLL_MILLIS);
                // ...then the pod joins and publishes at once, inside that wait.
                sub.membership(List.of(new Endpoint("pod-0", "127.0.0.1", 8000)));
                pub.sendMore("kv@pod-0@m".getBytes(StandardCharsets.UTF_8));
                pub.sendMore(KvMessage.sequenceBytes(0));
                pub.send(new byte[] {(byte) 0xc1}); // not msgpack: the pod's own stream reports it malformed
                await().atMost(Duration.ofSeconds(5)).until(() -> observer.count("malformed") + observer.count("unknown") > 0);
                assertThat(observer.lines).as("resolved to pod-0, not dropped").contains("malformed pod-0")
                        .noneMatch(l -> l.startsWith("unknown"));
            } finally {
                sub.close();
                workers.close();
            }
        }
    }

    /**
     * A pod the pool has but the followed membership does not yet (it is polled every 200 ms; a router just started
     * follows an empty pool until then): its first message is resolved against the pool itself, not dropped.
     */
    @Test
    void aPodThePoolHasBeforeTheMembershipCaughtUpResolvesItsFirstMessage() throws Exception {
        RecordingObserver observer = new RecordingObserver();
        PreciseIndex index = new InMemoryPreciseIndex(1_000, 16, 0, PreciseIndex.DEFAULT_TIER_WEIGHTS);
        IndexWorkers workers = new IndexWorkers(index, 1, observer, "t");
        List<Endpoint> pool = List.of(new Endpoint("pod-0", "127.0.0.1", 8000));
        try (ZContext context = new ZContext()) {
            CentralSubscriber sub = new CentralSubscriber(context, "tcp://127.0.0.1:*", "kv@", workers, List.of(),
                    () -> pool, observer, SystemTicker.INSTANCE, Duration.ofSeconds(1), "t");
            try {
                String bound = sub.start();
                ZMQ.Socket pub = context.createSocket(SocketType.XPUB);
                pub.connect(bound);
                assertThat(pub.recv(0)).as("the subscription").isNotNull();
                pub.sendMore("kv@pod-0@m".getBytes(StandardCharsets.UTF_8));
                pub.sendMore(KvMessage.sequenceBytes(0));
                pub.send(new byte[] {(byte) 0xc1});
                pub.sendMore("kv@ghost@m".getBytes(StandardCharsets.UTF_8));
                pub.sendMore(KvMessage.sequenceBytes(0));
                pub.send(new byte[] {(byte) 0xc1});
                await().atMost(Duration.ofSeconds(5)).until(() -> observer.count("unknown") > 0);
                assertThat(observer.lines).as("pod-0 resolved from the pool, the ghost still unknown")
                        .contains("malformed pod-0").anyMatch(l -> l.startsWith("unknown"));
            } finally {
                sub.close();
                workers.close();
            }
        }
    }
}
