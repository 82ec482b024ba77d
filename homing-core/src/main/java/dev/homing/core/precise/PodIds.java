package dev.homing.core.precise;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The pods of an {@link InMemoryPreciseIndex} by name and by int id. Ids are small and dense, and a pod that left gives
 * its id back for the next one: bitsets over pod ids (key summaries, a lookup's runs) then stay as many words as there
 * are pods at once, not as pods ever seen. Not thread-safe.
 */
final class PodIds {

    private final Map<String, Pod> byName = new HashMap<>();
    private Pod[] byId = new Pod[16];
    private int handedOut; // ids handed out at least once
    private int[] free = new int[16];
    private int freeCount;

    /** The pod of this name, or null. */
    Pod get(String name) {
        return byName.get(name);
    }

    /** The pod of this name, with an id of its own if it is new. */
    Pod getOrAdd(String name) {
        Pod pod = byName.get(name);
        if (pod != null) {
            return pod;
        }
        int id;
        if (freeCount > 0) {
            id = free[--freeCount];
        } else {
            if (handedOut == Holdings.MAX_PODS) {
                throw new IllegalStateException("more than " + Holdings.MAX_PODS + " pods");
            }
            id = handedOut++;
            if (handedOut > byId.length) {
                byId = Arrays.copyOf(byId, byId.length * 2);
            }
        }
        pod = new Pod(id);
        byId[id] = pod;
        byName.put(name, pod);
        return pod;
    }

    /** The pod of a live id. */
    Pod byId(int id) {
        return byId[id];
    }

    /** Forgets the pod of this name, if known, whose holdings must be gone, and frees its id. */
    void remove(String name) {
        Pod pod = byName.remove(name);
        if (pod != null) {
            byId[pod.id] = null;
            if (freeCount == free.length) {
                free = Arrays.copyOf(free, freeCount * 2);
            }
            free[freeCount++] = pod.id;
        }
    }

    /** Ids handed out at least once: every id is below it. */
    int ids() {
        return handedOut;
    }

    /** Words of a bitset over pod ids. */
    int words() {
        return (handedOut + 63) >>> 6;
    }
}
