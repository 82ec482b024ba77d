package dev.homing.bench.result;

/**
 * Hit rates of one cache holding the fleet's whole KV capacity, on one workload: Belady's farthest-next-use
 * replacement (no placement on a fleet of that total capacity beats it; "% of bound" is read against it) and LRU (a
 * reference: partitioned pod caches can beat a pooled LRU). Both count hits as vLLM does, and so does the infinite
 * bound beside them.
 *
 * @param capacityBlocks the pooled cache's size: the sum of the pods' usable KV blocks
 */
public record CacheBounds(long capacityBlocks, double belady, double lru) {
}
