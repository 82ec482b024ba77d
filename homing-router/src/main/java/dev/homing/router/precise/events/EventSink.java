package dev.homing.router.precise.events;

import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.List;

/** Where a publisher's events go, in the order given: a pod's index entries. */
interface EventSink {

    void apply(String pod, List<KvCacheEvent> events);

    /** Drops everything the index says {@code pod} holds; what it publishes next rebuilds it. */
    void clear(String pod);
}
