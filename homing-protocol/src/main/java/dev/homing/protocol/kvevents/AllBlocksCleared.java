package dev.homing.protocol.kvevents;

/** The engine's prefix cache was emptied ({@code reset_prefix_cache}); a subscriber drops everything it knows of it. */
public record AllBlocksCleared() implements KvCacheEvent {

    public static final AllBlocksCleared INSTANCE = new AllBlocksCleared();

    static final String TAG = "AllBlocksCleared";
}
