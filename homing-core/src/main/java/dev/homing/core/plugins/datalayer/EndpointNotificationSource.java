package dev.homing.core.plugins.datalayer;

import dev.homing.core.plugin.Parameters;
import dev.homing.core.plugin.Plugin;
import dev.homing.core.plugin.PluginContext;

/**
 * llm-d's {@code endpoint-notification-source}: delivers endpoint added/removed events to its extractors, so they can
 * set up or drop per-endpoint state. No parameters; Homing's discovery already announces removals to the pool.
 */
public record EndpointNotificationSource(String name) implements Plugin {

    public static final String TYPE = "endpoint-notification-source";

    public EndpointNotificationSource {
        name = HttpSource.nameOr(name, TYPE);
    }

    public static EndpointNotificationSource create(String name, Parameters p, PluginContext ctx) {
        return new EndpointNotificationSource(name);
    }

    @Override
    public String type() {
        return TYPE;
    }
}
