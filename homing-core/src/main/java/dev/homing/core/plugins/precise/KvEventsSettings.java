package dev.homing.core.plugins.precise;

import dev.homing.core.plugin.Parameters;

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

    static KvEventsSettings read(Parameters p) {
        String[] selector = new String[1];
        int[] port = new int[1];
        dev.homing.core.plugins.NestedParameters.mapping(p, "podDiscoveryConfig", d -> {
            selector[0] = d.string("podLabelSelector", DEFAULT.podLabelSelector());
            port[0] = d.integer("socketPort", DEFAULT.socketPort());
            return null;
        });
        KvEventsSettings s = new KvEventsSettings(p.string("topicFilter", DEFAULT.topicFilter()),
                p.integer("concurrency", DEFAULT.concurrency()), p.string("engineType", DEFAULT.engineType()),
                p.bool("discoverPods", DEFAULT.discoverPods()), selector[0], port[0],
                p.string("zmqEndpoint", DEFAULT.zmqEndpoint()));
        if (s.concurrency() <= 0) {
            throw new dev.homing.core.plugin.PluginConfigException("parameter 'concurrency' must be > 0");
        }
        if (s.socketPort() <= 0 || s.socketPort() > 65535) {
            throw new dev.homing.core.plugin.PluginConfigException("parameter 'socketPort' must be a port, got " + s.socketPort());
        }
        return s;
    }

    /** Pods connect to us at {@link #zmqEndpoint()} rather than us dialing them. */
    public boolean centralized() {
        return !zmqEndpoint.isEmpty();
    }
}
