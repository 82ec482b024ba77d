package dev.homing.bench.policy;

import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.flowcontrol.FlowControlSettings;
import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.List;
import java.util.Map;

/**
 * A routing policy in the lab: it places each request on a pod at its arrival, and may listen to what a router of
 * its kind can know about the pods: their scraped metrics, their KV-cache events, and its own requests' progress
 * ({@link Placement}). Policies run on one thread, in virtual time.
 */
public interface Policy {

    String name();

    /**
     * Chooses the pod for a request now.
     *
     * @throws PlacementException when the policy refuses the request (no endpoint available)
     */
    Placement place(PolicyRequest request) throws PlacementException;

    /** Whether it needs the request's JSON body parsed into {@link PolicyRequest#fields()}. */
    default boolean readsBodies() {
        return false;
    }

    /** Whether it reads the pods' scraped metrics; only then does the cluster scrape. */
    default boolean readsMetrics() {
        return false;
    }

    /** A scrape of pod {@code pod} just completed with these values. */
    default void scraped(int pod, EndpointMetrics metrics) {
    }

    /** Whether it consumes KV-cache events; only then do the engines build them (they cost). */
    default boolean consumesKvEvents() {
        return false;
    }

    /** What its self-reporting plugins say now, by plugin name (a predictor's error, say); empty for most. */
    default Map<String, Map<String, Double>> pluginReports() {
        return Map.of();
    }

    /**
     * Its config's flow control ({@code featureGates: [flowControl]}), or null when requests go straight to
     * {@link #place} (legacy admission, or no admission at all). With flow control the cluster holds each request in
     * a {@code FlowController} and places it when admitted, as the router's {@code FlowGate} does.
     */
    default FlowControlSettings flowControl() {
        return null;
    }

    /** The pool's saturation now as its config's detector reads it (0 when it has none): flow control's gate. */
    default double saturation() {
        return 0.0;
    }

    /** One engine step's KV-cache events from pod {@code pod}, delivered in order after the transport's lag. */
    default void kvEvents(int pod, List<KvCacheEvent> events) {
    }
}
