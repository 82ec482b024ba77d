package dev.homing.bench.policy;

/**
 * Where a policy sent one request, and what it must hear while the request runs. The cluster calls
 * {@link #firstToken} at most once and {@link #finished} exactly once, whatever ended the request, so load a policy
 * counted at the pick is released exactly once.
 */
public interface Placement {

    /** Index of the pod in the cluster ({@code pod-<index>}). */
    int pod();

    /** The first output token exists: the prefill is over (Dynamo stops counting the request's prefill). */
    default void firstToken(long nanos) {
    }

    /** The request ended, its response complete or not; the load it held is released. */
    void finished(long nanos);

    /**
     * The request ended with the usage its response reported (what a router reads off the last chunk); a policy that
     * learns from usage overrides it, the others hear {@link #finished(long)}.
     */
    default void finished(long nanos, long promptTokens, long completionTokens, long cachedTokens) {
        finished(nanos);
    }
}
