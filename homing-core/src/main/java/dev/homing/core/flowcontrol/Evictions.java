package dev.homing.core.flowcontrol;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The dispatched requests eviction may choose from, and the choice. Tracked only while eviction is on, each from its
 * admission to its end; guarded by the controller's lock.
 */
final class Evictions {

    /** llm-d's {@code defaultMaxRevocationsPerDecision}: at most this many requests evicted at once. */
    static final int MAX_PER_DECISION = 2;

    private final Set<Item> inFlight = new HashSet<>();
    private int pending;

    void admitted(Item item, FlowControlSettings s) {
        if (s.eviction()) {
            inFlight.add(item);
        }
    }

    void ended(Item item) {
        if (inFlight.remove(item) && item.evicted) {
            pending--;
        }
    }

    void clear() {
        inFlight.clear();
        pending = 0;
    }

    /**
     * Requests to evict so that a held-back band of priority {@code blocked} can go: evictable by the filter, of lower
     * priority, first by the eviction order, at most {@link #MAX_PER_DECISION}; none while earlier evictions have not
     * ended yet (their load is still on the pool, and evicting more would take more than needed).
     */
    List<Item> choose(int blocked, FlowControlSettings s) {
        if (!s.eviction() || pending > 0 || inFlight.isEmpty()) {
            return List.of();
        }
        List<Item> candidates = new ArrayList<>();
        for (Item i : inFlight) {
            if (!i.evicted && i.request.priority() < blocked && s.evictionFilter().evictable(i)) {
                candidates.add(i);
            }
        }
        candidates.sort(s.evictionOrder().order());
        List<Item> chosen = List.copyOf(candidates.subList(0, Math.min(MAX_PER_DECISION, candidates.size())));
        for (Item i : chosen) {
            i.evicted = true;
            pending++;
        }
        return chosen;
    }
}
