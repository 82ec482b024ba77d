package dev.homing.protocol.kvevents;

/**
 * One change to an engine's prefix cache, as vLLM's {@code KVCacheEvent} ({@code vllm/distributed/kv_events.py}).
 * On the wire the class name is the tag: the first element of a legacy array, or the {@code "type"} key of a map.
 */
public sealed interface KvCacheEvent permits BlockStored, BlockRemoved, AllBlocksCleared {
}
