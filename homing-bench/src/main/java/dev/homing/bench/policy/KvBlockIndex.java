package dev.homing.bench.policy;

import dev.homing.core.precise.BlockKeys;
import dev.homing.protocol.kvevents.AllBlocksCleared;
import dev.homing.protocol.kvevents.BlockRemoved;
import dev.homing.protocol.kvevents.BlockStored;
import dev.homing.protocol.kvevents.EventBlockHash;
import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.List;

/**
 * Dynamo's {@code KvIndexer}: one global radix tree of the blocks every worker says it holds, fed by their KV events.
 * Dynamo keys a tree node by the hash of its block's tokens under its parent; a chained key over the tokens
 * ({@link BlockKeys}) names the same node, so the tree is a map from key to the workers holding it. Each worker's
 * engine hashes map to keys so that removals and children of known blocks resolve (Dynamo's {@code worker → seq_hash
 * → node} lookup).
 *
 * <p>{@link #findMatches}: walk the request's keys from the root while some worker holds the node, counting for each
 * worker the nodes on the path it holds (Dynamo's {@code OverlapScores.scores}); {@link #treeSize} is a worker's
 * block count (its {@code tree_sizes}). Bound: what the workers hold; a block leaves with its {@code BlockRemoved}.
 * Up to 64 workers.
 */
final class KvBlockIndex {

    static final long ROOT = BlockKeys.root(0, null, null);

    private final int blockSize;
    private final LongTable holders = new LongTable(1 << 16);
    private final LongTable[] engineToKey;
    private final long[] sizes;
    private long unresolved;

    KvBlockIndex(int workers, int blockSize) {
        if (workers < 1 || workers > 64) {
            throw new IllegalArgumentException("1 to 64 workers, got " + workers);
        }
        this.blockSize = blockSize;
        this.engineToKey = new LongTable[workers];
        for (int w = 0; w < workers; w++) {
            engineToKey[w] = new LongTable(1 << 12);
        }
        this.sizes = new long[workers];
    }

    /** The keys of a prompt's full blocks, as the router computes them from the tokens. */
    long[] keys(int[] tokens) {
        return BlockKeys.of(ROOT, tokens, blockSize, Integer.MAX_VALUE);
    }

    void apply(int worker, List<KvCacheEvent> events) {
        for (KvCacheEvent e : events) {
            switch (e) {
                case BlockStored s -> stored(worker, s);
                case BlockRemoved r -> {
                    for (EventBlockHash h : r.blockHashes()) {
                        removed(worker, h.asUint64());
                    }
                }
                case AllBlocksCleared c -> clear(worker);
                default -> unresolved++;
            }
        }
    }

    private void stored(int worker, BlockStored s) {
        if (s.blockSize() != blockSize) {
            unresolved++;
            return;
        }
        long parent = ROOT;
        if (s.parentBlockHash() != null) {
            parent = engineToKey[worker].get(s.parentBlockHash().asUint64(), Long.MIN_VALUE);
            if (parent == Long.MIN_VALUE) {
                unresolved++; // a parent never seen (Dynamo logs and drops the event)
                return;
            }
        }
        int[] tokens = s.tokenIds();
        List<EventBlockHash> hashes = s.blockHashes();
        long bit = 1L << worker;
        for (int i = 0; i < hashes.size(); i++) {
            long key = BlockKeys.next(parent, tokens, i * blockSize, blockSize);
            long had = holders.get(key, 0);
            if ((had & bit) == 0) {
                holders.put(key, had | bit);
                sizes[worker]++;
            }
            engineToKey[worker].put(hashes.get(i).asUint64(), key);
            parent = key;
        }
    }

    private void removed(int worker, long engineHash) {
        long key = engineToKey[worker].remove(engineHash, Long.MIN_VALUE);
        if (key == Long.MIN_VALUE) {
            return;
        }
        long bit = 1L << worker;
        long had = holders.get(key, 0);
        if ((had & bit) != 0) {
            sizes[worker]--;
            long left = had & ~bit;
            if (left == 0) {
                holders.remove(key, 0);
            } else {
                holders.put(key, left);
            }
        }
    }

    private void clear(int worker) {
        LongTable mine = engineToKey[worker];
        long[] engineHashes = new long[mine.size()];
        int[] n = {0};
        mine.forEach((engineHash, key) -> engineHashes[n[0]++] = engineHash);
        for (long engineHash : engineHashes) {
            removed(worker, engineHash);
        }
        mine.clear();
    }

    /** Per worker, the nodes of the request's path it holds, walking while any worker holds the next node. */
    int[] findMatches(long[] keys) {
        int[] scores = new int[sizes.length];
        for (long key : keys) {
            long workers = holders.get(key, 0);
            if (workers == 0) {
                break;
            }
            while (workers != 0) {
                int w = Long.numberOfTrailingZeros(workers);
                scores[w]++;
                workers &= workers - 1;
            }
        }
        return scores;
    }

    long treeSize(int worker) {
        return sizes[worker];
    }

    /** Events that could not be applied: a parent never seen, another block size. */
    long unresolved() {
        return unresolved;
    }
}
