package dev.homing.protocol.kvevents;

import java.util.List;
import java.util.Objects;

/**
 * Cached blocks were evicted. vLLM sends one hash per event ({@code _maybe_evict_cached_block}).
 *
 * @param medium {@code "GPU"}, or {@code "CPU"} for an offloading connector; may be null
 * @param groupIdx the KV cache group, null when the sender predates the field
 */
public record BlockRemoved(List<EventBlockHash> blockHashes, String medium, Integer groupIdx) implements KvCacheEvent {

    static final String TAG = "BlockRemoved";

    public BlockRemoved {
        blockHashes = List.copyOf(blockHashes);
    }

    /** As vLLM ≥ 0.26 sends a GPU eviction: medium {@code "GPU"}, group 0. */
    public static BlockRemoved gpu(EventBlockHash hash) {
        return new BlockRemoved(List.of(Objects.requireNonNull(hash, "hash")), "GPU", 0);
    }
}
