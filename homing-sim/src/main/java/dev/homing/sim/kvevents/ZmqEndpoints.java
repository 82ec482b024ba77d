package dev.homing.sim.kvevents;

/** vLLM's rule for which side of a ZMQ connection its KV-event publisher takes ({@code ZmqEventPublisher}). */
public final class ZmqEndpoints {

    private ZmqEndpoints() {
    }

    /**
     * True when vLLM binds {@code endpoint} rather than connecting to it: a wildcard host or port ({@code *}), an IPv6
     * wildcard ({@code ::}), or a local transport ({@code ipc://}, {@code inproc://}). {@code tcp://*:5557} (the
     * default) binds, so subscribers dial each pod; {@code tcp://router:5557} connects to a central subscriber.
     */
    public static boolean binds(String endpoint) {
        return endpoint.contains("*") || endpoint.contains("::") || endpoint.startsWith("ipc://")
                || endpoint.startsWith("inproc://");
    }

    static boolean ipv6(String endpoint) {
        return endpoint.contains("::") || endpoint.contains("[");
    }
}
