package dev.homing.core.endpoint;

/**
 * Hears every credit and release of an endpoint's load, once each: the router publishes its own in-flight counts to
 * its sibling replicas with one. Called on the request path (a credit under the director's decision lock), so an
 * implementation only records the change and returns: no I/O, no waiting, no exceptions.
 */
public interface LoadListener {

    LoadListener NONE = new LoadListener() {
        @Override
        public void acquired(String endpoint, long totalTokens) {
        }

        @Override
        public void released(String endpoint, long totalTokens) {
        }
    };

    /** A request was credited to {@code endpoint}, with this estimate of its prompt plus output tokens. */
    void acquired(String endpoint, long totalTokens);

    /** A request credited earlier ended; {@code totalTokens} as it was credited. */
    void released(String endpoint, long totalTokens);
}
