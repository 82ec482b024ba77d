package dev.homing.router.learned;

import dev.homing.core.learned.InMemoryNewcomerLru;
import dev.homing.core.learned.NewcomerLru;
import dev.homing.router.learned.StreamAppends.Fields;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The newcomer spreader's order shared by a pool's replicas: this replica's copy ({@link InMemoryNewcomerLru}, with
 * its bound) answers, and every receipt made here is appended to the scorer's stream for the others' copies. So
 * replicas behind a round robin, each given every other newcomer, still spread them over all pods. Consistency as
 * {@link SharedApproxIndex}: eventual, one append and one read behind.
 */
final class SharedNewcomerLru implements NewcomerLru, Replicated {

    private final InMemoryNewcomerLru local;
    private final int size;
    private final String key;
    private final long history;
    private final StreamAppends appends;

    SharedNewcomerLru(String key, int size, long history, StreamAppends appends) {
        this.local = new InMemoryNewcomerLru(size);
        this.size = size;
        this.key = key;
        this.history = history;
        this.appends = appends;
    }

    /** The most endpoints this copy remembers. */
    int bound() {
        return size;
    }

    @Override
    public String streamKey() {
        return key;
    }

    @Override
    public void received(String endpoint) {
        local.received(endpoint);
        Map<String, String> f = new HashMap<>(4);
        f.put(Fields.ENDPOINT, endpoint);
        appends.append(key, history, f);
    }

    @Override
    public List<String> leastRecentFirst() {
        return local.leastRecentFirst();
    }

    @Override
    public void apply(Map<String, String> fields) {
        String endpoint = fields.get(Fields.ENDPOINT);
        if (endpoint != null) {
            local.received(endpoint);
        }
    }
}
