package dev.homing.core.plugins.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.core.framework.flowcontrol.UsageLimitPolicy;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Homing's {@code priority-usage-limit-policy}: a saturation ceiling by priority, so that lower priorities stop
 * short of a full pool and the headroom left is there for the higher ones the moment they arrive. llm-d's
 * {@code static-usage-limit-policy} gives every priority the same ceiling: under overload the pool then sits at its
 * limit, and a request of the highest priority, though first in line, waits for capacity to free before it goes.
 * Reserving the top of the pool for it is what a per-priority usage limit (llm-d's {@code ComputeLimit} per priority)
 * is for; llm-d ships no such policy.
 *
 * <p>Parameters: {@code threshold} (default 1.0), the ceiling of priorities below every tier; {@code tiers}, a list of
 * {@code {minPriority, threshold}}: a request of priority p takes the threshold of the tier with the highest
 * {@code minPriority} not above p. Thresholds in (0, 1], as the static policy's.
 *
 * <pre>
 * - type: priority-usage-limit-policy
 *   parameters:
 *     threshold: 0.9                          # priorities below 10: up to 90 % of the pool
 *     tiers: [{minPriority: 10, threshold: 1.0}]
 * </pre>
 */
public final class PriorityUsageLimitPolicy extends NamedPlugin implements UsageLimitPolicy {

    public static final String TYPE = "priority-usage-limit-policy";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, PriorityUsageLimitPolicy::create);

    private final double threshold;
    private final NavigableMap<Integer, Double> tiers;

    public PriorityUsageLimitPolicy(String name, double threshold, Map<Integer, Double> tiers) {
        super(TYPE, name);
        check("threshold", threshold);
        tiers.forEach((p, t) -> check("tiers[minPriority " + p + "].threshold", t));
        this.threshold = threshold;
        this.tiers = new TreeMap<>(tiers);
    }

    static PriorityUsageLimitPolicy create(String name, Parameters p, PluginContext ctx) {
        Map<Integer, Double> tiers = new TreeMap<>();
        JsonNode list = p.node("tiers");
        if (list != null && !list.isNull()) {
            if (!list.isArray()) {
                throw new PluginConfigException("parameter 'tiers' must be a list of {minPriority, threshold}");
            }
            for (JsonNode t : list) {
                JsonNode min = t.get("minPriority");
                JsonNode th = t.get("threshold");
                if (min == null || !min.canConvertToInt() || !min.isIntegralNumber() || th == null || !th.isNumber()) {
                    throw new PluginConfigException("each of 'tiers' needs an integer 'minPriority' and a number"
                            + " 'threshold', got " + t);
                }
                if (tiers.put(min.intValue(), th.doubleValue()) != null) {
                    throw new PluginConfigException("two of 'tiers' have minPriority " + min.intValue());
                }
            }
        }
        return new PriorityUsageLimitPolicy(name, p.number("threshold", 1.0), tiers);
    }

    private static void check(String what, double v) {
        if (!(v > 0 && v <= 1)) {
            throw new PluginConfigException("parameter '" + what + "' must be in (0, 1], got " + v);
        }
    }

    @Override
    public double ceiling(double saturation, int priority) {
        Map.Entry<Integer, Double> tier = tiers.floorEntry(priority);
        return tier == null ? threshold : tier.getValue();
    }
}
