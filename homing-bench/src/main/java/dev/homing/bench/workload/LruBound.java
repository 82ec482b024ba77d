package dev.homing.bench.workload;

import java.util.Arrays;

/**
 * The prefix-cache hit rate of one LRU cache of {@code capacity} blocks over a workload: a reference beside
 * {@link BeladyBound}, not a bound (a fleet of partitioned caches can beat it: each pod's cache keeps its own working
 * set where the pooled LRU lets one stream flush another's).
 *
 * <p>The same rules as Belady's: arrival order, a hit is the longest resident run of leading full blocks, at most
 * {@code (tokens − 1) / blockSize} blocks; then every full block of the prompt is used. Blocks are used tail first,
 * as vLLM frees a finished request's blocks in reverse order "so that the tail blocks are evicted first", so a
 * request's first block is the most recently used and a parent is never evicted before its child. A block not
 * resident is admitted, evicting the least recently used when full. O(1) per block access.
 */
public final class LruBound {

    private LruBound() {
    }

    public static double of(Workload w, int blockSize, long capacity) {
        return of(BlockTrace.of(w, blockSize), capacity);
    }

    static double of(BlockTrace t, long capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative, got " + capacity);
        }
        long total = t.totalPromptTokens();
        if (total == 0) {
            return 0;
        }
        int c = (int) Math.min(capacity, t.distinct);
        if (c == 0) {
            return 0;
        }
        // a doubly linked list over block ids, most recent at head; -1 ends it
        int[] newer = new int[t.distinct];
        int[] older = new int[t.distinct];
        boolean[] resident = new boolean[t.distinct];
        Arrays.fill(newer, -1);
        Arrays.fill(older, -1);
        int head = -1;
        int tail = -1;
        int size = 0;
        long hit = 0;
        for (int r = 0; r < t.requests(); r++) {
            int from = t.start[r];
            int to = t.start[r + 1];
            hit += (long) t.hitBlocks(r, id -> resident[id]) * t.blockSize;
            for (int a = to - 1; a >= from; a--) {
                int id = t.ids[a];
                if (resident[id]) {
                    if (id == head) {
                        continue;
                    }
                    // unlink; id is not the head, so it has a newer neighbour
                    int o = older[id];
                    int n = newer[id];
                    older[n] = o;
                    if (o >= 0) {
                        newer[o] = n;
                    } else {
                        tail = n;
                    }
                } else {
                    if (size == c) {
                        int victim = tail;
                        resident[victim] = false;
                        tail = newer[victim];
                        if (tail >= 0) {
                            older[tail] = -1;
                        } else {
                            head = -1;
                        }
                        newer[victim] = -1;
                        size--;
                    }
                    resident[id] = true;
                    size++;
                }
                // link at head
                older[id] = head;
                newer[id] = -1;
                if (head >= 0) {
                    newer[head] = id;
                }
                head = id;
                if (tail < 0) {
                    tail = id;
                }
            }
        }
        return (double) hit / total;
    }
}
