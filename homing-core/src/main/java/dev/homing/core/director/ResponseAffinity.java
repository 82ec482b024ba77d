package dev.homing.core.director;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which endpoint answered each recent Responses API response: a response is stored by the model server that made it
 * (vLLM keeps it in that process's memory), so a later request naming it as {@code previous_response_id}, or a
 * {@code GET /v1/responses/{id}}, can only be answered there. The director sends such a request to that endpoint while
 * it is a candidate, and routes it as any other request otherwise (the endpoint left the pool, failed on an earlier
 * attempt, or the id was never learnt or has been evicted: the pod it reaches then says 404, as any would).
 *
 * <p>Bounded: at most {@code capacity} ids, the least recently used evicted first (a follow-up refreshes its parent,
 * so a live conversation stays). An endpoint that leaves the pool takes its ids with it. Both data planes learn ids
 * through {@link Dispatch#answered(String)}; reads and writes take one lock for a map operation.
 */
public final class ResponseAffinity {

    /** About 12 MB of ids at most: vLLM's ids are {@code resp_} and 32 hex digits. */
    public static final int DEFAULT_CAPACITY = 65_536;

    private final int capacity;
    private final LinkedHashMap<String, String> endpointById;
    private final AtomicLong learnt = new AtomicLong();
    private final AtomicLong evicted = new AtomicLong();
    private final AtomicLong pinned = new AtomicLong();
    private final AtomicLong unpinned = new AtomicLong();

    public ResponseAffinity(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be > 0, got " + capacity);
        }
        this.capacity = capacity;
        this.endpointById = new LinkedHashMap<>(Math.min(capacity, 1024), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
                if (size() > ResponseAffinity.this.capacity) {
                    evicted.incrementAndGet();
                    return true;
                }
                return false;
            }
        };
    }

    /** Remembers that {@code endpoint} answered with response {@code responseId}. */
    public void remember(String responseId, String endpoint) {
        if (responseId == null || responseId.isEmpty() || endpoint == null) {
            return;
        }
        synchronized (endpointById) {
            endpointById.put(responseId, endpoint);
        }
        learnt.incrementAndGet();
    }

    /** The endpoint that answered {@code responseId}, or null; a lookup makes the id the most recently used. */
    public String endpointOf(String responseId) {
        synchronized (endpointById) {
            return endpointById.get(responseId);
        }
    }

    /** As {@link #endpointOf} but leaving the order alone: a dry run changes no state. */
    public String peek(String responseId) {
        synchronized (endpointById) {
            for (Map.Entry<String, String> e : endpointById.entrySet()) {
                if (e.getKey().equals(responseId)) {
                    return e.getValue();
                }
            }
            return null;
        }
    }

    /** Forgets every response of an endpoint that left the pool: its store went with it. */
    public void forgetEndpoint(String endpoint) {
        synchronized (endpointById) {
            endpointById.values().removeIf(endpoint::equals);
        }
    }

    void countPinned(boolean followed) {
        (followed ? pinned : unpinned).incrementAndGet();
    }

    public int capacity() {
        return capacity;
    }

    public int size() {
        synchronized (endpointById) {
            return endpointById.size();
        }
    }

    /** Ids remembered since start. */
    public long learnt() {
        return learnt.get();
    }

    /** Ids dropped to stay within the capacity. */
    public long evicted() {
        return evicted.get();
    }

    /** Requests sent to the endpoint that stored the response they name. */
    public long pinned() {
        return pinned.get();
    }

    /** Requests naming a known response whose endpoint was no candidate, routed as any other. */
    public long unpinned() {
        return unpinned.get();
    }
}
