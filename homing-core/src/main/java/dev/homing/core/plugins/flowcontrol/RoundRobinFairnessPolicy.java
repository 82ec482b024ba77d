package dev.homing.core.plugins.flowcontrol;

import dev.homing.core.framework.flowcontrol.FairnessPolicy;
import dev.homing.core.framework.flowcontrol.FlowQueue;
import dev.homing.core.framework.flowcontrol.QueuedRequest;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import java.util.Comparator;
import java.util.List;

/**
 * llm-d's {@code round-robin-fairness-policy}: the band's flows take turns, one dispatch each, in fairness-id order,
 * skipping flows with nothing waiting; so k backlogged flows each get 1/k of the band's dispatches whatever their
 * arrival rates. The cursor is the last flow served, per band (llm-d-router 1f92d0b0,
 * {@code fairness/roundrobin/roundrobin.go}: keys sorted, start after the last selected, first non-empty wins).
 *
 * <p>The cursor is a fairness id, not an index: a flow that empties and leaves the band between turns does not shift
 * the turn onto the wrong flow; the turn goes to the next id after the last one served.
 */
public final class RoundRobinFairnessPolicy extends NamedPlugin implements FairnessPolicy {

    public static final String TYPE = "round-robin-fairness-policy";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, RoundRobinFairnessPolicy::create);

    public RoundRobinFairnessPolicy(String name) {
        super(TYPE, name);
    }

    static RoundRobinFairnessPolicy create(String name, Parameters p, PluginContext ctx) {
        return new RoundRobinFairnessPolicy(name);
    }

    @Override
    public Selector newSelector() {
        return new Cursor();
    }

    /** One band's turn. */
    private static final class Cursor implements Selector {
        private String last;

        @Override
        public FlowQueue pick(List<? extends FlowQueue> flows, Comparator<QueuedRequest> order) {
            int n = flows.size();
            if (n == 0) {
                last = null;
                return null;
            }
            int start = 0;
            if (last != null) {
                // flows are sorted by id: start at the first id after the last one served, wrapping round
                start = n;
                for (int i = 0; i < n; i++) {
                    if (flows.get(i).fairnessId().compareTo(last) > 0) {
                        start = i;
                        break;
                    }
                }
            }
            for (int k = 0; k < n; k++) {
                FlowQueue f = flows.get((start + k) % n);
                if (f.size() > 0) {
                    last = f.fairnessId();
                    return f;
                }
            }
            last = null;
            return null;
        }
    }
}
