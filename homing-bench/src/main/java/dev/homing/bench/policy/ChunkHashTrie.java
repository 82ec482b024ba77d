package dev.homing.bench.policy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import net.openhft.hashing.LongHashFunction;

/**
 * vLLM production-stack's prefix trie ({@code vllm-project/production-stack} {@code src/vllm_router/prefix/hashtrie.py}
 * @ {@code 35e4ad377d6e8f2153af888a6968c5bdf3d00399}, {@code HashTrie}): the request string cut into chunks of 128
 * characters (the last, shorter chunk too), each chunk hashed alone with xxh64 (seed 0, over its UTF-8 bytes, as
 * Python's {@code xxhash.xxh64(str)}), one trie level per chunk, each node holding the set of endpoints a request
 * through it was sent to. Endpoints are a bit set (up to 64).
 *
 * <p>Bound (a departure: upstream has none, "we assume that there is no eviction of prefix cache"): at most
 * {@code maxNodes} nodes besides the root; when an insert leaves more, the least recently inserted leaves go, a parent
 * becoming a leaf in its turn, until 3/4 of the bound remain (so the walk that finds the leaves is amortised over many
 * inserts). The lab's default is set far above what its scenarios insert, so it never changes a result there.
 */
final class ChunkHashTrie {

    static final int CHUNK_SIZE = 128;
    private static final LongHashFunction XXH64 = LongHashFunction.xx(0);

    private final int chunkSize;
    private final long maxNodes;
    private final Node root = new Node(null, 0);
    private long nodes;
    private long epoch;
    private long evicted;

    ChunkHashTrie(int chunkSize, long maxNodes) {
        if (chunkSize < 1 || maxNodes < 1) {
            throw new IllegalArgumentException("chunk size and node bound must be > 0");
        }
        this.chunkSize = chunkSize;
        this.maxNodes = maxNodes;
    }

    /** The hashes of the request's chunks of {@code chunkSize} characters (code points, as Python's slicing). */
    long[] chunkHashes(String request) {
        int points = request.codePointCount(0, request.length());
        long[] out = new long[(points + chunkSize - 1) / chunkSize];
        int from = 0;
        for (int i = 0; i < out.length; i++) {
            int to = request.offsetByCodePoints(from, Math.min(chunkSize, points - i * chunkSize));
            out[i] = XXH64.hashBytes(request.substring(from, to).getBytes(StandardCharsets.UTF_8));
            from = to;
        }
        return out;
    }

    /** {@code insert}: adds the endpoint to the root and to every node on the request's path, creating missing ones. */
    void insert(long[] chunks, int endpoint) {
        long bit = 1L << endpoint;
        long now = ++epoch;
        Node node = root;
        node.endpoints |= bit;
        for (long h : chunks) {
            Node child = node.children == null ? null : node.children.get(h);
            if (child == null) {
                child = new Node(node, h);
                if (node.children == null) {
                    node.children = new HashMap<>(2);
                }
                node.children.put(h, child);
                nodes++;
            }
            child.endpoints |= bit;
            child.inserted = now;
            node = child;
        }
        if (nodes > maxNodes) {
            if (evicted == 0) {
                // a departure from upstream that changes the result: never silent
                System.err.println("production-stack: the lab's trie reached its bound of " + maxNodes + " nodes;"
                        + " evicting, which upstream never does");
            }
            evict(maxNodes - maxNodes / 4);
        }
    }

    /** What {@code longest_prefix_match} returns: the characters matched and the endpoints left. */
    record Match(long matchedChars, long endpoints) {
    }

    /**
     * {@code longest_prefix_match}: starting from the available endpoints, follow the chunks while a child exists and
     * shares an endpoint with those still selected, narrowing to the intersection at each step.
     */
    Match longestPrefixMatch(long[] chunks, long available) {
        Node node = root;
        long selected = available;
        long matched = 0;
        for (long h : chunks) {
            Node child = node.children == null ? null : node.children.get(h);
            if (child == null || (child.endpoints & selected) == 0) {
                break;
            }
            node = child;
            matched += chunkSize;
            selected &= child.endpoints;
        }
        return new Match(matched, selected);
    }

    long nodes() {
        return nodes;
    }

    /** Nodes removed by the bound so far. */
    long evicted() {
        return evicted;
    }

    private void evict(long target) {
        PriorityQueue<Node> leaves = new PriorityQueue<>((a, b) -> Long.compare(a.inserted, b.inserted));
        ArrayDeque<Node> walk = new ArrayDeque<>();
        walk.add(root);
        while (!walk.isEmpty()) {
            Node n = walk.poll();
            if (n.children == null || n.children.isEmpty()) {
                if (n != root) {
                    leaves.add(n);
                }
            } else {
                walk.addAll(n.children.values());
            }
        }
        while (nodes > target && !leaves.isEmpty()) {
            Node leaf = leaves.poll();
            Node parent = leaf.parent;
            parent.children.remove(leaf.hash);
            nodes--;
            evicted++;
            if (parent != root && parent.children.isEmpty()) {
                leaves.add(parent);
            }
        }
    }

    private static final class Node {
        final Node parent;
        final long hash;
        Map<Long, Node> children;
        long endpoints;
        long inserted;

        Node(Node parent, long hash) {
            this.parent = parent;
            this.hash = hash;
        }
    }
}
