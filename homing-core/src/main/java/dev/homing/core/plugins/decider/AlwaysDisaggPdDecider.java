package dev.homing.core.plugins.decider;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PdDecider;

/** llm-d's {@code always-disagg-pd-decider}: every request is prefilled remotely. */
public final class AlwaysDisaggPdDecider extends NamedPlugin implements PdDecider {

    public static final String TYPE = "always-disagg-pd-decider";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, (name, p, ctx) -> new AlwaysDisaggPdDecider(name));

    public AlwaysDisaggPdDecider(String name) {
        super(TYPE, name);
    }

    @Override
    public boolean disaggregate(Cycle cycle, EndpointState decodeTarget) {
        return true;
    }
}
