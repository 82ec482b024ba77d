package dev.homing.router.precise.events;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.precise.KvEventFeed;
import dev.homing.core.precise.KvEventsSettings;
import dev.homing.core.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Supplier;
import java.util.Map;
import org.zeromq.ZContext;

/**
 * The KV events that feed one precise producer's index, in the mode its {@code kvEventsConfig} asks for: one SUB per
 * endpoint of the pool, dialing its publisher and following the pool's membership; or, with {@code zmqEndpoint} set,
 * one SUB bound there that the pods connect to. Events are applied by {@code concurrency} workers, each pod's in order.
 */
final class ProducerSubscription implements AutoCloseable {

    private final KvEventFeed producer;
    private final KvEventsSettings settings;
    private final KvEventsObserver observer;
    private final Ticker ticker;
    private final Duration replayTimeout;
    private final ZContext context = new ZContext();
    private final IndexWorkers workers;
    private final Map<String, PodSubscriber> dialing = new LinkedHashMap<>();
    private final CentralSubscriber central;
    private final String boundEndpoint;

    /** @throws IllegalStateException when the centralized endpoint cannot be bound; nothing is left running */
    /** @param pool the pool's endpoints now, read by a bound subscriber when a topic names one it does not know */
    ProducerSubscription(KvEventFeed producer, List<Endpoint> members, Supplier<List<Endpoint>> pool,
                         KvEventsObserver observer, Ticker ticker, Duration replayTimeout) {
        this.producer = producer;
        this.settings = producer.events();
        this.observer = observer;
        this.ticker = ticker;
        this.replayTimeout = replayTimeout;
        this.workers = new IndexWorkers(producer.index(), settings.concurrency(), observer, producer.name());
        if (settings.centralized()) {
            central = new CentralSubscriber(context, settings.zmqEndpoint(), settings.topicFilter(), workers, members,
                    pool, observer, ticker, replayTimeout, producer.name());
            String bound;
            try {
                bound = central.start();
            } catch (RuntimeException e) {
                workers.close();
                context.close();
                throw e;
            }
            boundEndpoint = bound;
        } else {
            central = null;
            boundEndpoint = null;
            membership(members);
        }
    }

    KvEventFeed producer() {
        return producer;
    }

    /** The centralized endpoint as bound, or null when dialing pods. */
    String boundEndpoint() {
        return boundEndpoint;
    }

    /** Pods this subscription dials now. */
    synchronized List<String> dialedPods() {
        return List.copyOf(dialing.keySet());
    }

    /**
     * Follows the pool: a new endpoint (or one whose publisher address changed) gets a subscriber; one that left has
     * its subscriber closed and, once its queued events are applied, its index entries removed.
     */
    synchronized void membership(List<Endpoint> endpoints) {
        if (central != null) {
            central.membership(endpoints);
            return;
        }
        Map<String, PublisherAddress> wanted = new HashMap<>();
        for (Endpoint e : endpoints) {
            wanted.put(e.name(), PublisherAddress.of(e, settings));
        }
        List<PodSubscriber> leaving = new ArrayList<>();
        dialing.values().removeIf(s -> {
            boolean gone = !s.address().equals(wanted.get(s.pod()));
            if (gone) {
                leaving.add(s);
            }
            return gone;
        });
        leaving.forEach(PodSubscriber::stop);
        for (PodSubscriber s : leaving) {
            s.join();
            workers.remove(s.pod());
        }
        for (Endpoint e : endpoints) {
            if (!dialing.containsKey(e.name())) {
                PodSubscriber s = new PodSubscriber(context, e.name(), wanted.get(e.name()), settings.topicFilter(),
                        workers, observer, ticker, replayTimeout);
                dialing.put(e.name(), s);
                s.start();
            }
        }
    }

    @Override
    public synchronized void close() {
        dialing.values().forEach(PodSubscriber::stop);
        dialing.values().forEach(PodSubscriber::join);
        dialing.clear();
        if (central != null) {
            central.close();
        }
        workers.close();
        context.close();
    }
}
