package dev.homing.core.plugins.flowcontrol;

import dev.homing.core.framework.flowcontrol.OrderingPolicy;
import dev.homing.core.framework.flowcontrol.QueuedRequest;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import java.util.Comparator;

/**
 * llm-d's {@code edf-ordering-policy}: earliest deadline first, the deadline being enqueue time plus the request's
 * TTL; a request without a TTL has none and goes after every request that has one; equal deadlines in arrival order
 * (llm-d-router 683100dc, {@code ordering/edf/edf.go}).
 */
public final class EdfOrderingPolicy extends NamedPlugin implements OrderingPolicy {

    public static final String TYPE = "edf-ordering-policy";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, EdfOrderingPolicy::create);

    private static final Comparator<QueuedRequest> ORDER = Comparator.comparingLong(EdfOrderingPolicy::deadline)
            .thenComparingLong(QueuedRequest::enqueueNanos).thenComparingLong(QueuedRequest::sequence);

    public EdfOrderingPolicy(String name) {
        super(TYPE, name);
    }

    static EdfOrderingPolicy create(String name, Parameters p, PluginContext ctx) {
        return new EdfOrderingPolicy(name);
    }

    static long deadline(QueuedRequest r) {
        long ttl = r.ttlNanos();
        if (ttl <= 0) {
            return Long.MAX_VALUE;
        }
        long d = r.enqueueNanos() + ttl;
        return d < r.enqueueNanos() ? Long.MAX_VALUE : d; // a TTL so long it overflows is no deadline
    }

    @Override
    public Comparator<QueuedRequest> order() {
        return ORDER;
    }
}
