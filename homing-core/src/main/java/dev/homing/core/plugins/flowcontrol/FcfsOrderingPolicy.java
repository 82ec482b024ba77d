package dev.homing.core.plugins.flowcontrol;

import dev.homing.core.framework.flowcontrol.OrderingPolicy;
import dev.homing.core.framework.flowcontrol.QueuedRequest;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import java.util.Comparator;

/** llm-d's {@code fcfs-ordering-policy}, the default: first come, first served, by arrival at the router. */
public final class FcfsOrderingPolicy extends NamedPlugin implements OrderingPolicy {

    public static final String TYPE = "fcfs-ordering-policy";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, FcfsOrderingPolicy::create)
            .defaultFor(OrderingPolicy.class);

    private static final Comparator<QueuedRequest> ORDER = Comparator.comparingLong(QueuedRequest::enqueueNanos)
            .thenComparingLong(QueuedRequest::sequence);

    public FcfsOrderingPolicy(String name) {
        super(TYPE, name);
    }

    static FcfsOrderingPolicy create(String name, Parameters p, PluginContext ctx) {
        return new FcfsOrderingPolicy(name);
    }

    @Override
    public Comparator<QueuedRequest> order() {
        return ORDER;
    }
}
