package dev.homing.core.plugins.decider;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PdDecider;

/**
 * llm-d's {@code always-disagg-multimodal-decider}, the encode decider: encode remotely whenever the request carries
 * images, video or audio ({@link MultimodalContent}).
 */
public final class AlwaysDisaggMultimodalDecider extends NamedPlugin implements PdDecider {

    public static final String TYPE = "always-disagg-multimodal-decider";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, (name, p, ctx) -> new AlwaysDisaggMultimodalDecider(name));

    public AlwaysDisaggMultimodalDecider(String name) {
        super(TYPE, name);
    }

    @Override
    public boolean disaggregate(Cycle cycle, EndpointState decodeTarget) {
        return MultimodalContent.present(cycle.request().fields());
    }
}
