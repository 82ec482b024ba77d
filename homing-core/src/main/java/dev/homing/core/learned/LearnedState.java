package dev.homing.core.learned;

/**
 * Makes the state plugins learn from the router's own picks: the approximate prefix index and the newcomer order. The
 * host chooses, through the plugin context: {@link #IN_MEMORY} unless it says otherwise; the router provides one kept
 * in Redis when its replicas share state, so that replicas of one config agree on both.
 */
public interface LearnedState {

    /** This process's memory only. */
    LearnedState IN_MEMORY = new LearnedState() {
        @Override
        public ApproxIndex approxIndex(String producer, long maxEntries) {
            return new InMemoryApproxIndex(maxEntries);
        }

        @Override
        public NewcomerLru newcomerLru(String scorer, int size) {
            return new InMemoryNewcomerLru(size);
        }

        @Override
        public String toString() {
            return "in memory";
        }
    };

    /**
     * @param producer   the producer's name: replicas running one config share the index of the producer of that name
     * @param maxEntries most (endpoint, block) entries kept; beyond, the least recently recorded go
     */
    ApproxIndex approxIndex(String producer, long maxEntries);

    /**
     * @param scorer the scorer's name, as {@code producer} above
     * @param size   most endpoints remembered; beyond, the least recent goes
     */
    NewcomerLru newcomerLru(String scorer, int size);
}
