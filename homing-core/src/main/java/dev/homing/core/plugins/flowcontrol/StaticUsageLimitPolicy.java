package dev.homing.core.plugins.flowcontrol;

import dev.homing.core.framework.flowcontrol.UsageLimitPolicy;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;

/**
 * llm-d's {@code static-usage-limit-policy}, the default: one ceiling, {@code threshold} (default 1.0), for every
 * priority; requests are dispatched while pool saturation is below it (llm-d-router 683100dc,
 * {@code usagelimits/usagelimitpolicy.go}). A threshold outside (0, 1] is refused, as llm-d's later README says it
 * must be: above 1 would dispatch into a pool its own detector calls overloaded, 0 or less would dispatch nothing.
 */
public final class StaticUsageLimitPolicy extends NamedPlugin implements UsageLimitPolicy {

    public static final String TYPE = "static-usage-limit-policy";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, StaticUsageLimitPolicy::create)
            .defaultFor(UsageLimitPolicy.class);

    private final double threshold;

    public StaticUsageLimitPolicy(String name, double threshold) {
        super(TYPE, name);
        if (!(threshold > 0 && threshold <= 1)) {
            throw new PluginConfigException("parameter 'threshold' must be in (0, 1], got " + threshold);
        }
        this.threshold = threshold;
    }

    static StaticUsageLimitPolicy create(String name, Parameters p, PluginContext ctx) {
        return new StaticUsageLimitPolicy(name, p.number("threshold", 1.0));
    }

    @Override
    public double ceiling(double saturation, int priority) {
        return threshold;
    }
}
