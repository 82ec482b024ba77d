package dev.homing.core.learned;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The newcomer order in this process's memory: an access-ordered map, bounded at {@code size}. */
public final class InMemoryNewcomerLru implements NewcomerLru {

    private final Map<String, Boolean> order;

    public InMemoryNewcomerLru(int size) {
        if (size <= 0) {
            throw new IllegalArgumentException("size must be > 0, got " + size);
        }
        this.order = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > size;
            }
        };
    }

    @Override
    public synchronized void received(String endpoint) {
        order.put(endpoint, Boolean.TRUE);
    }

    @Override
    public synchronized List<String> leastRecentFirst() {
        return new ArrayList<>(order.keySet());
    }
}
