package dev.homing.core.flowcontrol;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Waiting requests in deadline order, for expiry: one TTL applies to all, so deadline order is enqueue order and a
 * deque suffices. Requests that leave otherwise stay in it until they reach the front or it is compacted, which keeps
 * it at most about twice the number waiting. Guarded by the controller's lock.
 */
final class Deadlines {

    private final ArrayDeque<Item> items = new ArrayDeque<>();

    void add(Item item, int waiting) {
        items.addLast(item);
        if (items.size() > 2 * waiting + 64) {
            items.removeIf(i -> i.state != Item.State.QUEUED);
        }
    }

    /** Takes every waiting request whose deadline is at or before {@code now}. */
    List<Item> due(long now) {
        List<Item> out = new ArrayList<>();
        while (!items.isEmpty()) {
            Item head = items.peekFirst();
            if (head.state == Item.State.QUEUED && head.deadline() > now) {
                break;
            }
            items.pollFirst();
            if (head.state == Item.State.QUEUED) {
                out.add(head);
            }
        }
        return out;
    }

    /** Every request still waiting, in deadline order. */
    List<Item> waiting() {
        List<Item> out = new ArrayList<>(items.size());
        for (Item i : items) {
            if (i.state == Item.State.QUEUED) {
                out.add(i);
            }
        }
        return out;
    }

    /** After a reload changed the TTL: requests keep the TTL they came with, re-sorted by their deadlines. */
    void resort() {
        List<Item> queued = waiting();
        queued.sort(Comparator.comparingLong(Item::deadline).thenComparingLong(Item::sequence));
        items.clear();
        items.addAll(queued);
    }

    void clear() {
        items.clear();
    }
}
