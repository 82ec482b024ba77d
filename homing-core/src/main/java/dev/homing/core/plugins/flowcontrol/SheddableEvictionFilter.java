package dev.homing.core.plugins.flowcontrol;

import dev.homing.core.framework.flowcontrol.EvictionFilter;
import dev.homing.core.framework.flowcontrol.InFlightRequest;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;

/** llm-d's {@code sheddable-eviction-filter}, the default: only sheddable requests (priority below 0) are evicted. */
public final class SheddableEvictionFilter extends NamedPlugin implements EvictionFilter {

    public static final String TYPE = "sheddable-eviction-filter";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, SheddableEvictionFilter::create)
            .defaultFor(EvictionFilter.class);

    public SheddableEvictionFilter(String name) {
        super(TYPE, name);
    }

    static SheddableEvictionFilter create(String name, Parameters p, PluginContext ctx) {
        return new SheddableEvictionFilter(name);
    }

    @Override
    public boolean evictable(InFlightRequest request) {
        return request.priority() < 0;
    }
}
