package dev.homing.bench.policy;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.PriorityQueue;

/**
 * SGLang's approximate cache for HTTP workers (SMG {@code kv_index::string_tree::Tree}): one radix tree over the raw
 * characters of every prompt routed, shared by all workers ("tenants"), each node recording which tenants were sent
 * text through it and when (a logical epoch). A match walks the request's text as deep as the tree goes and names
 * the tenant cached at the deepest node reached: the first tenant that created it while it still holds it, else
 * the first remaining (SMG's {@code last_tenant} cache over a map with its own order; ours is the lowest index).
 *
 * <p>Bound, two rules for the two versions the lab models, each run periodically by its policy: {@link #evictTreeWide}
 * keeps the total of all tenants' characters under one budget, removing least recently used leaves across tenants
 * (SMG today, {@code crates/kv_index/src/string_tree.rs}); {@link #evictOverBudget} removes, for every tenant over the
 * budget, its least recently used leaves until it is under (the 2025 router's per-tenant {@code
 * evict_tenant_by_size}). Up to 64 tenants.
 */
final class CharRadixTree {

    private static final char[] NO_KEYS = new char[0];
    private static final Node[] NO_NODES = new Node[0];

    private final int tenants;
    private final Node root;
    private final long[] chars;
    private long epoch;

    /** How many tenants of the deepest node a match reports (SMG {@code MATCHED_TENANTS_CAP}). */
    static final int MATCHED_TENANTS_CAP = 8;

    /**
     * What a match found. {@code tenant} is -1 when the deepest node has no tenant; {@code tenants} is the bit set of
     * the tenants holding the deepest node reached (at most {@link #MATCHED_TENANTS_CAP}, lowest indices first where
     * SMG takes its map's order), empty when nothing matched.
     */
    record Match(int tenant, long tenants, int matchedChars, int inputChars) {
        double rate() {
            return inputChars == 0 ? 0 : (double) matchedChars / inputChars;
        }
    }

    CharRadixTree(int tenants) {
        if (tenants < 1 || tenants > 64) {
            throw new IllegalArgumentException("1 to 64 tenants, got " + tenants);
        }
        this.tenants = tenants;
        this.root = new Node("", null, tenants);
        this.chars = new long[tenants];
        for (int t = 0; t < tenants; t++) {
            root.attach(t, 0); // SMG's init_workers inserts "" for every worker; the root is never evicted
        }
    }

    /** Matches without inserting; as SMG, touches the matched tenant's time on one match in eight. */
    Match match(String text) {
        Node current = root;
        Node deepest = root;
        int pos = 0;
        int matched = 0;
        while (pos < text.length()) {
            Node child = current.child(text.charAt(pos));
            if (child == null) {
                break;
            }
            int shared = sharedPrefix(text, pos, child.text);
            matched += shared;
            deepest = child;
            if (shared < child.text.length()) {
                break; // a partial match still names this node's tenant
            }
            pos += shared;
            current = child;
        }
        int tenant = deepest.resolveTenant();
        long e = epoch++;
        if ((e & 0x7) == 0 && tenant >= 0) {
            deepest.access[tenant] = e;
        }
        long holders = 0;
        if (matched > 0) {
            long m = deepest.mask;
            for (int k = 0; k < MATCHED_TENANTS_CAP && m != 0; k++, m &= m - 1) {
                holders |= Long.lowestOneBit(m);
            }
        }
        return new Match(tenant, holders, matched, text.length());
    }

    /** Records that {@code text} was sent to {@code tenant}. */
    void insert(String text, int tenant) {
        Node prev = root;
        int pos = 0;
        while (pos < text.length()) {
            char first = text.charAt(pos);
            Node child = prev.child(first);
            if (child == null) {
                Node leaf = new Node(text.substring(pos), prev, tenants);
                leaf.owner = tenant;
                leaf.attach(tenant, epoch++);
                chars[tenant] += leaf.text.length();
                prev.put(first, leaf);
                return;
            }
            int shared = sharedPrefix(text, pos, child.text);
            if (shared < child.text.length()) {
                child = split(prev, child, shared);
            }
            if (!child.has(tenant)) {
                child.attach(tenant, 0); // SMG's intermediate attach: epoch 0, only the final node gets a real time
                chars[tenant] += child.text.length();
            }
            pos += child.text.length();
            prev = child;
        }
        if (prev != root) {
            if (!prev.has(tenant)) {
                prev.attach(tenant, 0);
                chars[tenant] += prev.text.length();
            }
            prev.access[tenant] = epoch++;
        }
    }

    /** Characters of {@code tenant} in the tree. */
    long chars(int tenant) {
        return chars[tenant];
    }

    /**
     * For every tenant holding more than {@code maxChars} characters, removes its least recently used leaves until
     * it holds at most that many; nodes no tenant holds any more leave the tree.
     */
    void evictOverBudget(long maxChars) {
        for (int t = 0; t < tenants; t++) {
            if (chars[t] > maxChars) {
                evict(t, maxChars);
            }
        }
    }

    /** Characters of every tenant in the tree (a node held by k tenants counts k times, as SMG's total). */
    long totalChars() {
        long total = 0;
        for (long c : chars) {
            total += c;
        }
        return total;
    }

    /**
     * While the tree's total exceeds {@code maxChars}, removes the least recently used (node, tenant) leaf across
     * all tenants (SMG's tree-wide {@code evict_tenant_by_size} of today); a parent becomes a leaf of that tenant when
     * its last child holding the tenant goes.
     */
    void evictTreeWide(long maxChars) {
        long total = totalChars();
        if (total <= maxChars) {
            return;
        }
        record Leaf(Node node, int tenant, long at) {
        }
        PriorityQueue<Leaf> leaves = new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
        ArrayDeque<Node> walk = new ArrayDeque<>();
        walk.add(root);
        while (!walk.isEmpty()) {
            Node n = walk.poll();
            for (int i = 0; i < n.size; i++) {
                walk.add(n.kids[i]);
            }
            if (n != root) {
                for (long m = n.mask; m != 0; m &= m - 1) {
                    int t = Long.numberOfTrailingZeros(m);
                    if (!n.childHas(t)) {
                        leaves.add(new Leaf(n, t, n.access[t]));
                    }
                }
            }
        }
        while (total > maxChars && !leaves.isEmpty()) {
            Leaf leaf = leaves.poll();
            Node node = leaf.node;
            node.detach(leaf.tenant);
            chars[leaf.tenant] -= node.text.length();
            total -= node.text.length();
            Node parent = node.parent;
            if (node.mask == 0) {
                parent.remove(node.text.charAt(0));
            }
            if (parent != root && parent.has(leaf.tenant) && !parent.childHas(leaf.tenant)) {
                leaves.add(new Leaf(parent, leaf.tenant, parent.access[leaf.tenant]));
            }
        }
    }

    private void evict(int tenant, long maxChars) {
        PriorityQueue<Node> leaves = new PriorityQueue<>((a, b) -> Long.compare(a.access[tenant], b.access[tenant]));
        ArrayDeque<Node> walk = new ArrayDeque<>();
        walk.add(root);
        while (!walk.isEmpty()) {
            Node n = walk.poll();
            for (int i = 0; i < n.size; i++) {
                walk.add(n.kids[i]);
            }
            if (n != root && n.has(tenant) && !n.childHas(tenant)) {
                leaves.add(n);
            }
        }
        while (chars[tenant] > maxChars && !leaves.isEmpty()) {
            Node leaf = leaves.poll();
            leaf.detach(tenant);
            chars[tenant] -= leaf.text.length();
            Node parent = leaf.parent;
            if (leaf.mask == 0) {
                parent.remove(leaf.text.charAt(0));
            }
            if (parent != root && parent.has(tenant) && !parent.childHas(tenant)) {
                leaves.add(parent);
            }
        }
    }

    /** Splits {@code child} after {@code at} characters; the new upper node keeps its tenants, times and owner. */
    private Node split(Node parent, Node child, int at) {
        Node upper = new Node(child.text.substring(0, at), parent, tenants);
        upper.mask = child.mask;
        upper.access = child.access.clone();
        upper.owner = child.owner;
        child.text = child.text.substring(at);
        child.parent = upper;
        upper.put(child.text.charAt(0), child);
        parent.put(upper.text.charAt(0), upper);
        return upper;
    }

    private static int sharedPrefix(String text, int from, String edge) {
        int n = Math.min(text.length() - from, edge.length());
        int i = 0;
        while (i < n && text.charAt(from + i) == edge.charAt(i)) {
            i++;
        }
        return i;
    }

    private static final class Node {
        String text;
        Node parent;
        char[] keys = NO_KEYS;
        Node[] kids = NO_NODES;
        int size;
        long mask;
        long[] access;
        int owner = -1;

        Node(String text, Node parent, int tenants) {
            this.text = text;
            this.parent = parent;
            this.access = new long[tenants];
        }

        Node child(char c) {
            for (int i = 0; i < size; i++) {
                if (keys[i] == c) {
                    return kids[i];
                }
            }
            return null;
        }

        void put(char c, Node n) {
            for (int i = 0; i < size; i++) {
                if (keys[i] == c) {
                    kids[i] = n;
                    return;
                }
            }
            if (size == keys.length) {
                int cap = Math.max(2, size * 2);
                keys = Arrays.copyOf(keys, cap);
                kids = Arrays.copyOf(kids, cap);
            }
            keys[size] = c;
            kids[size++] = n;
        }

        void remove(char c) {
            for (int i = 0; i < size; i++) {
                if (keys[i] == c) {
                    size--;
                    keys[i] = keys[size];
                    kids[i] = kids[size];
                    kids[size] = null;
                    return;
                }
            }
        }

        boolean has(int tenant) {
            return (mask & (1L << tenant)) != 0;
        }

        void attach(int tenant, long at) {
            mask |= 1L << tenant;
            access[tenant] = at;
        }

        void detach(int tenant) {
            mask &= ~(1L << tenant);
        }

        boolean childHas(int tenant) {
            for (int i = 0; i < size; i++) {
                if (kids[i].has(tenant)) {
                    return true;
                }
            }
            return false;
        }

        int resolveTenant() {
            if (owner >= 0 && has(owner)) {
                return owner;
            }
            owner = mask == 0 ? -1 : Long.numberOfTrailingZeros(mask);
            return owner;
        }
    }
}
