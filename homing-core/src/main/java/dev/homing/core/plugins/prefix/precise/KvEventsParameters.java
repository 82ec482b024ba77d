package dev.homing.core.plugins.prefix.precise;

import dev.homing.core.framework.plugin.NestedParameters;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.precise.KvEventsSettings;

/** Reads llm-d's {@code kvEventsConfig} block of a precise producer, with llm-d's defaults. */
final class KvEventsParameters {

    private KvEventsParameters() {
    }

    static KvEventsSettings read(Parameters p) {
        KvEventsSettings d = KvEventsSettings.DEFAULT;
        String[] selector = new String[1];
        int[] port = new int[1];
        NestedParameters.mapping(p, "podDiscoveryConfig", pd -> {
            selector[0] = pd.string("podLabelSelector", d.podLabelSelector());
            port[0] = pd.integer("socketPort", d.socketPort());
            return null;
        });
        KvEventsSettings s = new KvEventsSettings(p.string("topicFilter", d.topicFilter()),
                p.integer("concurrency", d.concurrency()), p.string("engineType", d.engineType()),
                p.bool("discoverPods", d.discoverPods()), selector[0], port[0], p.string("zmqEndpoint", d.zmqEndpoint()));
        if (s.concurrency() <= 0) {
            throw new PluginConfigException("parameter 'concurrency' must be > 0");
        }
        if (s.socketPort() <= 0 || s.socketPort() > 65535) {
            throw new PluginConfigException("parameter 'socketPort' must be a port, got " + s.socketPort());
        }
        return s;
    }
}
