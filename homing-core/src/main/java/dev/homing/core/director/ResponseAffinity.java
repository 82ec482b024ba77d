package dev.homing.core.director;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Which endpoint answered each recent Responses API response: a response is stored by the model server that made it
 * (vLLM keeps it in that process's memory), so a later request naming it as {@code previous_response_id}, or a
 * {@code GET /v1/responses/{id}}, can only be answered there. The director sends such a request to that endpoint while
 * it is a candidate, and routes it as any other request otherwise (the endpoint left the pool, failed on an earlier
 * attempt, or the id was never learnt or has been evicted: the pod it reaches then says 404, as any would).
 *
 * <p>Bounded: at most {@code capacity} ids, the least recently used evicted first (a follow-up refreshes its parent,
 * so a live conversation stays). An endpoint that leaves the pool takes its ids with it, and an id learnt after it
 * left is not kept. Both data planes learn ids through {@link Dispatch#answered(String)}; reads and writes take one
 * lock for a constant-time map operation, a dry run's {@link #peek} included (the map keeps insertion order, and a use
 * moves an id to the end by taking it out and putting it back, so a read that must not reorder is a plain get).
 *
 * <p>Which pods store at all is not known here: an id learnt from a pod that keeps nothing (vLLM without
 * {@code VLLM_ENABLE_RESPONSES_API_STORE}) sends its follow-ups there, where they get the 404 any pod would give.
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
        this.endpointById = new LinkedHashMap<>(Math.min(capacity, 1024), 0.75f, false) {
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

    /**
     * Remembers that {@code endpoint} answered with response {@code responseId}, unless {@code inPool} says the
     * endpoint has left the pool (its store went with it). The test runs under the lock {@link #forgetEndpoint} takes;
     * a pool publishes its new membership before it announces a removal, so either the test sees the endpoint gone,
     * or the id is kept just before the removal's forget drops it.
     */
    public void remember(String responseId, String endpoint, Predicate<String> inPool) {
        if (responseId == null || responseId.isEmpty() || endpoint == null) {
            return;
        }
        synchronized (endpointById) {
            if (!inPool.test(endpoint)) {
                return;
            }
            endpointById.remove(responseId); // a put alone would leave a known id where it was in the order
            endpointById.put(responseId, endpoint);
        }
        learnt.incrementAndGet();
    }

    /** The endpoint that answered {@code responseId}, or null; a lookup makes the id the most recently used. */
    public String endpointOf(String responseId) {
        synchronized (endpointById) {
            String endpoint = endpointById.remove(responseId);
            if (endpoint != null) {
                endpointById.put(responseId, endpoint);
            }
            return endpoint;
        }
    }

    /** As {@link #endpointOf} but leaving the order alone: a dry run changes no state. */
    public String peek(String responseId) {
        synchronized (endpointById) {
            return endpointById.get(responseId);
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
