package dev.homing.router.precise.events;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.precise.KvEventFeed;
import dev.homing.core.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * The router's KV-event subscribers: one {@link ProducerSubscription} per precise producer of the running config, none
 * at all without one. {@link #wire} follows config reloads (a producer kept by a reload keeps its subscription and
 * sequence state; a new or re-parameterised one gets a new subscription; one that is gone has its subscription
 * closed); the pool's membership is followed every {@link #MEMBERSHIP_INTERVAL}.
 */
public final class KvEventSubscribers implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(KvEventSubscribers.class.getName());
    static final Duration MEMBERSHIP_INTERVAL = Duration.ofMillis(200);
    /** Longest wait for a replay socket's first answer, and between two answers. */
    static final Duration REPLAY_TIMEOUT = Duration.ofSeconds(2);

    private final EndpointPool pool;
    private final KvEventsObserver observer;
    private final Ticker ticker;
    private final Map<KvEventFeed, ProducerSubscription> subscriptions = new IdentityHashMap<>();
    private final Map<String, LongAdder> taken = new ConcurrentHashMap<>();
    private final ScheduledExecutorService membership = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "homing-kv-membership");
        t.setDaemon(true);
        return t;
    });
    private ScheduledFuture<?> following;
    private List<Endpoint> lastMembers = List.of();
    private boolean closed;

    public KvEventSubscribers(EndpointPool pool, KvEventsObserver observer, Ticker ticker) {
        this.pool = pool;
        this.observer = new Counting(observer);
        this.ticker = ticker;
    }

    /**
     * Subscribes for exactly these producers: subscriptions of producers no longer present are closed first (so a
     * re-parameterised producer can bind the endpoint its predecessor held), then new ones start.
     *
     * @throws IllegalStateException when a centralized endpoint cannot be bound; the other producers are wired
     */
    public synchronized void wire(List<KvEventFeed> producers) {
        if (closed) {
            return;
        }
        Set<KvEventFeed> wanted = Collections.newSetFromMap(new IdentityHashMap<>());
        wanted.addAll(producers);
        subscriptions.entrySet().removeIf(e -> {
            if (wanted.contains(e.getKey())) {
                return false;
            }
            e.getValue().close();
            return true;
        });
        List<Endpoint> members = members();
        lastMembers = members;
        IllegalStateException failure = null;
        for (KvEventFeed p : producers) {
            if (subscriptions.containsKey(p)) {
                continue;
            }
            try {
                subscriptions.put(p, new ProducerSubscription(p, members, this::members, observer, ticker,
                        REPLAY_TIMEOUT));
                LOG.log(System.Logger.Level.INFO, "KV events: feeding " + p.name() + " "
                        + (p.events().centralized() ? "from " + subscriptions.get(p).boundEndpoint()
                        : "by dialing each pod"));
            } catch (IllegalStateException e) {
                failure = failure == null ? e : failure;
                LOG.log(System.Logger.Level.ERROR, "KV events: " + p.name() + " gets no events: " + e.getMessage());
            }
        }
        if (subscriptions.isEmpty() && following != null) {
            following.cancel(false);
            following = null;
        } else if (!subscriptions.isEmpty() && following == null) {
            long every = MEMBERSHIP_INTERVAL.toNanos();
            following = membership.scheduleWithFixedDelay(this::followPool, every, every, TimeUnit.NANOSECONDS);
        }
        if (failure != null) {
            throw failure;
        }
    }

    private List<Endpoint> members() {
        return pool.snapshot().endpoints().stream().map(EndpointState::endpoint).toList();
    }

    private synchronized void followPool() {
        List<Endpoint> members = members();
        if (closed || members.equals(lastMembers)) {
            return;
        }
        lastMembers = members;
        for (ProducerSubscription s : subscriptions.values()) {
            s.membership(members);
        }
        Set<String> names = members.stream().map(Endpoint::name).collect(Collectors.toSet());
        taken.keySet().retainAll(names);
    }

    /** Batches taken in sequence from {@code pod}'s publisher since it joined, over every subscription. */
    public long batchesTaken(String pod) {
        LongAdder n = taken.get(pod);
        return n == null ? 0 : n.sum();
    }

    /** Pods some subscription dials now (a pod that left is dialed no more), sorted. */
    public synchronized List<String> dialedPods() {
        java.util.TreeSet<String> out = new java.util.TreeSet<>();
        subscriptions.values().forEach(s -> out.addAll(s.dialedPods()));
        return List.copyOf(out);
    }

    /** Producers being fed now, by name. */
    public synchronized List<String> producers() {
        List<String> out = new ArrayList<>();
        subscriptions.keySet().forEach(p -> out.add(p.name()));
        return out;
    }

    /** Where the named producer's centralized subscriber is bound (a {@code *} port resolved), if it has one. */
    public synchronized Optional<String> boundEndpoint(String producer) {
        return subscriptions.entrySet().stream().filter(e -> e.getKey().name().equals(producer))
                .map(e -> e.getValue().boundEndpoint()).filter(java.util.Objects::nonNull).findFirst();
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            subscriptions.values().forEach(ProducerSubscription::close);
            subscriptions.clear();
        }
        membership.shutdownNow();
    }

    /** Forwards to the router's observer and counts batches per pod, for {@link #batchesTaken}. */
    private final class Counting implements KvEventsObserver {
        private final KvEventsObserver next;

        Counting(KvEventsObserver next) {
            this.next = next;
        }

        @Override
        public void batchTaken(String pod) {
            taken.computeIfAbsent(pod, p -> new LongAdder()).increment();
            next.batchTaken(pod);
        }

        @Override
        public void eventsApplied(String pod, int events) {
            next.eventsApplied(pod, events);
        }

        @Override
        public void eventsSkipped(String reason, int events) {
            next.eventsSkipped(reason, events);
        }

        @Override
        public void gap(String pod, long missing) {
            next.gap(pod, missing);
        }

        @Override
        public void batchesLost(String pod, long batches) {
            next.batchesLost(pod, batches);
        }

        @Override
        public void replay(String pod, boolean complete) {
            next.replay(pod, complete);
        }

        @Override
        public void restart(String pod) {
            next.restart(pod);
        }

        @Override
        public void malformed(String pod) {
            next.malformed(pod);
        }

        @Override
        public void unknownPod(String podId) {
            next.unknownPod(podId);
        }
    }
}
