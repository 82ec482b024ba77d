package dev.homing.core.learned;

import java.util.List;

/**
 * The newcomer spreader's order (llm-d's no-hit LRU): the endpoints that received a cold request, least recently
 * first. Bounded at the size it was made with; beyond it the least recent goes.
 *
 * <p>{@link InMemoryNewcomerLru} keeps it in this process; a host may provide another through {@link LearnedState}
 * (the router's, shared by its replicas through Redis). Implementations are thread-safe.
 */
public interface NewcomerLru {

    /**
     * {@code endpoint} just received a newcomer: it becomes the most recent. Called under the director's decision
     * lock, so an implementation must not wait on I/O here.
     */
    void received(String endpoint);

    /** The endpoints that received a newcomer, least recently first. */
    List<String> leastRecentFirst();

    /**
     * Starts a reading of the order before the decision lock is taken; {@link Lookup#leastRecentFirst} finishes it
     * under the lock, and sees what was received since the lookup began. An order kept remotely is read here.
     */
    default Lookup lookup() {
        return this::leastRecentFirst;
    }

    /** A reading begun outside the decision lock. */
    @FunctionalInterface
    interface Lookup {
        List<String> leastRecentFirst();
    }
}
