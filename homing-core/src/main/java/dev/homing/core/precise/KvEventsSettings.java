package dev.homing.core.precise;

/**
 * Where a precise index gets its events (llm-d's {@code kvEventsConfig}): by dialing each discovered pod's publisher
 * ({@code discoverPods}, port {@code socketPort}), or by binding {@code zmqEndpoint} for pods to connect to. Read by the
 * router's subscriber.
 *
 * @param topicFilter ZMQ subscription prefix ({@code kv@})
 * @param concurrency workers applying events; events of one pod stay in order
 */
public record KvEventsSettings(String topicFilter, int concurrency, String engineType, boolean discoverPods,
                               String podLabelSelector, int socketPort, String zmqEndpoint) {

    public static final KvEventsSettings DEFAULT =
            new KvEventsSettings("kv@", 4, "vllm", true, "llm-d.ai/inference-serving=true", 5557, "");

    /** Pods connect to us at {@link #zmqEndpoint()} rather than us dialing them. */
    public boolean centralized() {
        return !zmqEndpoint.isEmpty();
    }
}
