package dev.homing.core.precise;

/**
 * A plugin whose precise index the pods' KV events keep: where it wants them from, and the index they go to. Core
 * does no I/O; the host (the router's subscribers, the benchmark's in-memory wiring) feeds every feed of the running
 * configuration, and knows precise producers only through this.
 */
public interface KvEventFeed {

    /** The plugin's name, for logs and metrics. */
    String name();

    KvEventsSettings events();

    PreciseIndex index();
}
