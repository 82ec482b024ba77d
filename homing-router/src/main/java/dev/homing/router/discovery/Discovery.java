package dev.homing.router.discovery;

/**
 * Where the pool's endpoints come from: a list given at start ({@link StaticDiscovery}), an endpoints file followed
 * as it changes ({@link FileDiscovery}), or the pods of a Kubernetes namespace ({@link KubernetesDiscovery}). Each
 * publishes through {@link dev.homing.core.endpoint.EndpointPool#setEndpoints}, off the request path, so joins and
 * leaves are handled one way whatever the source (a leaving endpoint takes its load, prefix-index entries, KV-event
 * subscription and Responses ids with it). The router is ready only once its discovery is synced: it knows the whole
 * pool, not the part listed so far.
 */
public interface Discovery extends AutoCloseable {

    /** Publishes the endpoints known now and follows the source from here on. */
    void start();

    /** Whether the pool published is the source's whole pool (before that, no request is routed: the pool is empty). */
    boolean synced();

    /** What the start line and the log call the source. */
    String describe();

    /** Stops following the source; the endpoints published stay. */
    @Override
    void close();
}
