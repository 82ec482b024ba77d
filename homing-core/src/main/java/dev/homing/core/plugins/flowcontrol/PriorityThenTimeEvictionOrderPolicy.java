package dev.homing.core.plugins.flowcontrol;

import dev.homing.core.framework.flowcontrol.EvictionOrderPolicy;
import dev.homing.core.framework.flowcontrol.InFlightRequest;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import java.util.Comparator;

/**
 * llm-d's {@code priority-then-time-eviction-order-policy}, the default: the lowest priority goes first, and within a
 * priority the most recently dispatched, which has had the least work spent on it.
 */
public final class PriorityThenTimeEvictionOrderPolicy extends NamedPlugin implements EvictionOrderPolicy {

    public static final String TYPE = "priority-then-time-eviction-order-policy";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, PriorityThenTimeEvictionOrderPolicy::create)
            .defaultFor(EvictionOrderPolicy.class);

    private static final Comparator<InFlightRequest> ORDER = Comparator.comparingInt(InFlightRequest::priority)
            .thenComparing(Comparator.comparingLong(InFlightRequest::dispatchedNanos).reversed());

    public PriorityThenTimeEvictionOrderPolicy(String name) {
        super(TYPE, name);
    }

    static PriorityThenTimeEvictionOrderPolicy create(String name, Parameters p, PluginContext ctx) {
        return new PriorityThenTimeEvictionOrderPolicy(name);
    }

    @Override
    public Comparator<InFlightRequest> order() {
        return ORDER;
    }
}
