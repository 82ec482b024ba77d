package dev.homing.router.precise.events;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.function.Supplier;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * llm-d's centralized mode: one SUB bound at {@code zmqEndpoint}, which every pod's publisher connects to. The topic
 * says which pod sent a message ({@link PodResolver}); messages naming no endpoint of the pool are counted and
 * dropped. Each pod's sequence is tracked on its own, and its replay socket, when its endpoint's label names one,
 * fills gaps. One thread owns every socket.
 */
final class CentralSubscriber implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(CentralSubscriber.class.getName());
    private static final int MAX_UNKNOWN_LOGGED = 100;

    private final ZContext context;
    private final String bindEndpoint;
    private final String topicFilter;
    private final EventSink sink;
    private final IndexWorkers workers;
    private final KvEventsObserver observer;
    private final Ticker ticker;
    private final Duration replayTimeout;
    private final CompletableFuture<String> bound = new CompletableFuture<>();
    private final Thread thread;
    private final Set<String> unknownLogged = new HashSet<>();
    private volatile List<Endpoint> members;
    private final Supplier<List<Endpoint>> pool;
    private volatile boolean running = true;
    private String boundAt; // the subscriber thread's: the endpoint with its port resolved

    /** One publisher's stream, and the endpoint it was set up for. */
    private record Tracked(Endpoint endpoint, PublisherStream stream) {
    }

    /**
     * @param pool the pool's endpoints now: read when a topic names a pod the last membership did not have, so a pod's
     *             first events, sent the moment it joined (or the router started), are not dropped while the
     *             membership the subscribers follow every {@code MEMBERSHIP_INTERVAL} catches up
     */
    CentralSubscriber(ZContext context, String bindEndpoint, String topicFilter, IndexWorkers workers,
                      List<Endpoint> members, Supplier<List<Endpoint>> pool, KvEventsObserver observer,
                      Ticker ticker, Duration replayTimeout, String name) {
        this.context = context;
        this.bindEndpoint = bindEndpoint;
        this.topicFilter = topicFilter;
        this.sink = workers;
        this.workers = workers;
        this.members = List.copyOf(members);
        this.pool = pool;
        this.observer = observer;
        this.ticker = ticker;
        this.replayTimeout = replayTimeout;
        this.thread = Thread.ofPlatform().daemon().name("homing-kv-bind-" + name).unstarted(this::run);
    }

    /**
     * Starts the thread and waits until the socket is bound.
     *
     * @return the endpoint as bound (a {@code *} port resolved)
     * @throws IllegalStateException when it cannot bind; nothing is left running
     */
    String start() {
        thread.start();
        try {
            return bound.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            close();
            throw new IllegalStateException("KV events: cannot bind " + bindEndpoint + ": " + e.getCause().getMessage(),
                    e.getCause());
        } catch (TimeoutException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            close();
            throw new IllegalStateException("KV events: binding " + bindEndpoint + " did not finish", e);
        }
    }

    /** The pool changed: topics resolve against the new membership; pods that left are forgotten. */
    void membership(List<Endpoint> endpoints) {
        members = List.copyOf(endpoints);
    }

    private void run() {
        ZMQ.Socket sub;
        try {
            sub = context.createSocket(SocketType.SUB);
            PodSubscriber.configure(sub, bindEndpoint);
            if (!sub.bind(bindEndpoint)) {
                throw new IllegalStateException("bind refused");
            }
            sub.subscribe(topicFilter.getBytes(StandardCharsets.UTF_8));
            String last = sub.getLastEndpoint();
            boundAt = last != null ? last : bindEndpoint;
            bound.complete(boundAt);
        } catch (RuntimeException e) {
            bound.completeExceptionally(e);
            return;
        }
        List<Endpoint> resolvedFor = null;
        PodResolver resolver = null;
        Map<String, Tracked> streams = new HashMap<>();
        try {
            while (running) {
                KvMessage m = KvMessage.receive(sub);
                // The membership is read after the message is in, not before the wait for it: a pod that joined
                // while this thread waited (a discovered pod's first events come right after it turns Ready) must
                // resolve, or its first batch would be dropped as an unknown pod's.
                List<Endpoint> now = members;
                if (now != resolvedFor) {
                    resolver = new PodResolver(now);
                    forgetDeparted(streams, now);
                    resolvedFor = now;
                }
                if (m == null) {
                    continue;
                }
                if (m.malformed()) {
                    observer.malformed("");
                    continue;
                }
                String podId = KvTopic.parse(m.topic()).podId();
                Endpoint e = resolver.resolve(podId);
                if (e == null) {
                    List<Endpoint> fresh = pool.get();
                    if (!fresh.equals(resolvedFor)) { // a pod newer than the membership followed
                        members = List.copyOf(fresh);
                        resolver = new PodResolver(fresh);
                        forgetDeparted(streams, fresh);
                        resolvedFor = members;
                        e = resolver.resolve(podId);
                    }
                }
                if (e == null) {
                    unknown(podId);
                    continue;
                }
                Tracked t = streams.get(e.name());
                if (t == null) {
                    String replay = PublisherAddress.replayOf(e);
                    Replayer replayer = replay == null ? null
                            : new ReplayClient(context, replay, () -> running, ticker, replayTimeout);
                    t = new Tracked(e, new PublisherStream(e.name(), replayer, sink, observer));
                    streams.put(e.name(), t);
                }
                t.stream().accept(m.seq(), m.payload());
            }
        } catch (RuntimeException e) {
            if (running) {
                LOG.log(System.Logger.Level.ERROR, "KV events at " + boundAt + ": subscriber stopped", e);
            }
        } finally {
            sub.close();
        }
    }

    /** Drops the streams of endpoints that left (or changed): a pod that comes back starts a new sequence. */
    private void forgetDeparted(Map<String, Tracked> streams, List<Endpoint> now) {
        Set<Endpoint> present = new HashSet<>(now);
        streams.values().removeIf(t -> {
            if (present.contains(t.endpoint())) {
                return false;
            }
            workers.remove(t.endpoint().name());
            return true;
        });
    }

    private void unknown(String podId) {
        observer.unknownPod(podId);
        if (unknownLogged.size() < MAX_UNKNOWN_LOGGED && unknownLogged.add(podId)) {
            LOG.log(System.Logger.Level.WARNING, "KV events from pod ''{0}'' at {1} dropped: no endpoint of the pool "
                    + "has that name, host:port or host", podId, boundAt);
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
