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
 * llm-d's {@code global-strict-fairness-policy}, the default: no fairness at all. The band's best waiting request by
 * its ordering policy goes first whatever its flow (with FCFS, the band's oldest), as if the band had one queue; on a
 * tie the first flow by fairness id keeps it. Stateless, no parameters (llm-d-router 683100dc,
 * {@code fairness/globalstrict/global_strict.go}).
 */
public final class GlobalStrictFairnessPolicy extends NamedPlugin implements FairnessPolicy {

    public static final String TYPE = "global-strict-fairness-policy";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, GlobalStrictFairnessPolicy::create)
            .defaultFor(FairnessPolicy.class);

    public GlobalStrictFairnessPolicy(String name) {
        super(TYPE, name);
    }

    static GlobalStrictFairnessPolicy create(String name, Parameters p, PluginContext ctx) {
        return new GlobalStrictFairnessPolicy(name);
    }

    @Override
    public Selector newSelector() {
        return GlobalStrictFairnessPolicy::best;
    }

    private static FlowQueue best(List<? extends FlowQueue> flows, Comparator<QueuedRequest> order) {
        FlowQueue best = null;
        QueuedRequest bestHead = null;
        for (FlowQueue f : flows) {
            QueuedRequest head = f.head();
            if (head != null && (bestHead == null || order.compare(head, bestHead) < 0)) {
                best = f;
                bestHead = head;
            }
        }
        return best;
    }
}
