package dev.homing.sim.engine;

import dev.homing.protocol.hashing.BlockHash;
import java.util.HashMap;
import java.util.Map;

/**
 * vLLM's {@code BlockPool}: reference-counted blocks, a free queue ordered least-recently-freed first, and the prefix
 * cache mapping block hashes to blocks. A cached block with no users stays in the free queue, still findable, until
 * it reaches the head and is reused: that is the eviction, least recently used first. Block 0 is the null block vLLM
 * reserves, never handed out.
 */
final class BlockPool {

    private final Block[] blocks;
    /** Sentinel of the circular free queue: head is {@code queue.nextFree}, tail {@code queue.prevFree}. */
    private final Block queue = new Block(-1);
    private final Map<BlockHash, Block> cached;
    private final KvEventSink sink;
    private int numFree;
    private int numCached;

    BlockPool(int numGpuBlocks, KvEventSink sink) {
        this.sink = sink;
        this.blocks = new Block[numGpuBlocks];
        this.cached = HashMap.newHashMap(Math.min(numGpuBlocks, 1 << 20));
        queue.prevFree = queue;
        queue.nextFree = queue;
        for (int i = 0; i < numGpuBlocks; i++) {
            blocks[i] = new Block(i);
            if (i > 0) {
                append(blocks[i]);
            }
        }
    }

    int usable() {
        return blocks.length - 1;
    }

    int numFree() {
        return numFree;
    }

    int numUsed() {
        return usable() - numFree;
    }

    int numCached() {
        return numCached;
    }

    /** vLLM's {@code get_usage}: held blocks over usable blocks. */
    double usage() {
        return 1.0 - (double) numFree / usable();
    }

    Block cachedBlock(BlockHash hash) {
        return cached.get(hash);
    }

    /**
     * The longest run of cached blocks for {@code hashes[0, maxBlocks)}, written to {@code out}; returns its length.
     */
    int longestHit(BlockHash[] hashes, int maxBlocks, Block[] out) {
        int n = 0;
        while (n < maxBlocks) {
            Block b = cached.get(hashes[n]);
            if (b == null) {
                break;
            }
            out[n++] = b;
        }
        return n;
    }

    /** Takes a reference to a cached block; a block nobody held leaves the free queue (it is no longer evictable). */
    void touch(Block b) {
        if (b.refCount == 0) {
            unlink(b);
        }
        b.refCount++;
    }

    /** The least recently freed block, evicted from the prefix cache if it was cached. */
    Block allocate() {
        Block b = queue.nextFree;
        if (b == queue) {
            throw new IllegalStateException("no free KV block");
        }
        unlink(b);
        if (b.hash != null) {
            evict(b);
        }
        b.refCount = 1;
        return b;
    }

    /** Drops one reference; a block nobody holds goes to the tail of the free queue, staying cached. */
    void release(Block b) {
        if (--b.refCount == 0) {
            append(b);
        }
    }

    /** Registers a block that just became full under its hash. */
    void register(Block b, BlockHash hash) {
        b.hash = hash;
        b.nextSameHash = cached.put(hash, b);
        numCached++;
    }

    /** vLLM's {@code reset_prefix_cache}: only when no request holds a block. */
    boolean reset() {
        if (numFree != usable()) {
            return false;
        }
        for (Block b : blocks) {
            b.hash = null;
            b.nextSameHash = null;
        }
        cached.clear();
        numCached = 0;
        sink.onAllBlocksCleared();
        return true;
    }

    private void evict(Block b) {
        BlockHash hash = b.hash;
        Block head = cached.get(hash);
        if (head == b) {
            if (b.nextSameHash == null) {
                cached.remove(hash);
            } else {
                cached.put(hash, b.nextSameHash);
            }
        } else {
            Block prev = head;
            while (prev.nextSameHash != b) {
                prev = prev.nextSameHash;
            }
            prev.nextSameHash = b.nextSameHash;
        }
        b.hash = null;
        b.nextSameHash = null;
        numCached--;
        sink.onBlockRemoved(hash);
    }

    private void append(Block b) {
        Block tail = queue.prevFree;
        b.prevFree = tail;
        b.nextFree = queue;
        tail.nextFree = b;
        queue.prevFree = b;
        numFree++;
    }

    private void unlink(Block b) {
        b.prevFree.nextFree = b.nextFree;
        b.nextFree.prevFree = b.prevFree;
        b.prevFree = null;
        b.nextFree = null;
        numFree--;
    }
}
