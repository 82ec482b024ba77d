package dev.homing.core.config;

import dev.homing.core.flowcontrol.BandSettings;
import dev.homing.core.flowcontrol.FlowControlSettings;
import dev.homing.core.framework.flowcontrol.EvictionFilter;
import dev.homing.core.framework.flowcontrol.EvictionOrderPolicy;
import dev.homing.core.framework.flowcontrol.FairnessPolicy;
import dev.homing.core.framework.flowcontrol.OrderingPolicy;
import dev.homing.core.framework.flowcontrol.UsageLimitPolicy;
import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.plugin.PluginRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Resolves {@code flowControl:} into {@link FlowControlSettings}, with llm-d's defaults: no global limits, no TTL,
 * bands of 1 GB and no request limit, {@code global-strict-fairness-policy}, {@code fcfs-ordering-policy},
 * {@code static-usage-limit-policy}. A policy reference names a declared plugin; a reference to an undeclared name
 * that is a flow-control plugin type makes that plugin with its defaults (llm-d's configs write
 * {@code fairnessPolicyRef: global-strict-fairness-policy} without declaring it). llm-d reads the section only when
 * the {@code flowControl} feature gate is on; so does Homing, with a warning when it is off.
 */
final class FlowControlResolution {

    /** Makes a plugin of a type with its defaults, named after it, or returns the one made already. */
    interface Defaults {
        Plugin add(String type) throws ConfigException;
    }

    private final String src;
    private final Map<String, Plugin> plugins;
    private final PluginRegistry registry;
    private final Defaults defaults;
    private final List<String> warnings;

    FlowControlResolution(String src, Map<String, Plugin> plugins, PluginRegistry registry, Defaults defaults,
                          List<String> warnings) {
        this.src = src;
        this.plugins = plugins;
        this.registry = registry;
        this.defaults = defaults;
        this.warnings = warnings;
    }

    /** The settings when the gate is on, else null. */
    FlowControlSettings resolve(EndpointPickerConfig config) throws ConfigException {
        FlowControlSpec spec = config.flowControl();
        if (!config.gate("flowControl")) {
            if (spec != null) {
                warnings.add(src + ": flowControl is ignored: featureGates does not list flowControl (llm-d reads"
                        + " the section only with the gate on)");
            }
            return null;
        }
        if (spec == null) {
            spec = new FlowControlSpec(null, null, null, null, null, null, List.of(), null, null, null);
        }
        if (spec.noEndpointRequestTTL() != null) {
            warnings.add(src + ": flowControl.noEndpointRequestTTL is read but not acted on: a request that no"
                    + " endpoint can serve is refused at once (503), it does not wait for one");
        }
        BandSettings defaultBand = band(spec.defaultPriorityBand(), null, "defaultPriorityBand");
        BandSettings negative = spec.defaultNegativePriorityBand() == null ? null
                : band(spec.defaultNegativePriorityBand(), defaultBand, "defaultNegativePriorityBand");
        Map<Integer, BandSettings> bands = new LinkedHashMap<>();
        for (FlowControlSpec.Band b : spec.priorityBands()) {
            if (b.priority() == null) {
                throw new ConfigException(src, b.line(), "a priority band needs a 'priority'");
            }
            if (bands.containsKey(b.priority())) {
                throw new ConfigException(src, b.line(), "duplicate priority level " + b.priority());
            }
            bands.put(b.priority(), band(b, b.priority() < 0 && negative != null ? negative : defaultBand,
                    "priority band " + b.priority()));
        }
        UsageLimitPolicy limit = policy(spec.usageLimitPolicyPluginRef(), UsageLimitPolicy.class, 0,
                "usageLimitPolicyPluginRef");
        boolean eviction = Boolean.TRUE.equals(spec.enableEviction());
        EvictionFilter filter = eviction ? firstOr(EvictionFilter.class) : null;
        EvictionOrderPolicy order = eviction ? firstOr(EvictionOrderPolicy.class) : null;
        long ttl = spec.defaultRequestTTL() == null ? 0 : spec.defaultRequestTTL().toNanos();
        if (ttl < 0) {
            throw new ConfigException(src, 0, "flowControl.defaultRequestTTL cannot be negative, got "
                    + spec.defaultRequestTTL());
        }
        return new FlowControlSettings(orZero(spec.maxBytes()), orZero(spec.maxRequests()), ttl, bands, defaultBand,
                negative, limit, eviction, filter, order);
    }

    private BandSettings band(FlowControlSpec.Band b, BandSettings template, String what) throws ConfigException {
        if (b == null) {
            return new BandSettings(BandSettings.DEFAULT_MAX_BYTES, 0, policy(null, OrderingPolicy.class, 0, what),
                    policy(null, FairnessPolicy.class, 0, what));
        }
        for (String key : b.other().keySet()) {
            warnings.add(ConfigException.location(src, b.line()) + ": " + what + ": '" + key
                    + "' is not a band key Homing knows (priority, priorityName, maxBytes, maxRequests,"
                    + " orderingPolicyRef, fairnessPolicyRef); ignored");
        }
        long maxBytes = b.maxBytes() == null || b.maxBytes() == 0
                ? (template != null ? template.maxBytes() : BandSettings.DEFAULT_MAX_BYTES) : b.maxBytes();
        long maxRequests = b.maxRequests() == null ? (template != null ? template.maxRequests() : 0) : b.maxRequests();
        if (maxBytes < 0 || maxRequests < 0) {
            throw new ConfigException(src, b.line(), what + ": limits cannot be negative");
        }
        OrderingPolicy ordering = b.orderingPolicyRef() == null && template != null ? template.ordering()
                : policy(b.orderingPolicyRef(), OrderingPolicy.class, b.line(), what + " orderingPolicyRef");
        FairnessPolicy fairness = b.fairnessPolicyRef() == null && template != null ? template.fairness()
                : policy(b.fairnessPolicyRef(), FairnessPolicy.class, b.line(), what + " fairnessPolicyRef");
        return new BandSettings(maxBytes, maxRequests, ordering, fairness);
    }

    /** The plugin {@code ref} names (made with its defaults if it is an undeclared type), or the role's default. */
    private <T extends Plugin> T policy(String ref, Class<T> role, int line, String where) throws ConfigException {
        String name = ref;
        if (name == null) {
            name = registry.defaultFor(role).orElseThrow(() -> new ConfigException(src, line,
                    "no default " + role.getSimpleName() + " for " + where));
        }
        Plugin p = plugins.get(name);
        if (p == null) {
            if (!registry.has(name)) {
                throw new ConfigException(src, line, where + " refers to '" + name + "', which is neither a declared"
                        + " plugin nor a plugin type");
            }
            p = defaults.add(name);
        }
        if (!role.isInstance(p)) {
            throw new ConfigException(src, line, where + ": plugin '" + name + "' does not implement "
                    + role.getSimpleName());
        }
        return role.cast(p);
    }

    private <T extends Plugin> T firstOr(Class<T> role) throws ConfigException {
        for (Plugin p : plugins.values()) {
            if (role.isInstance(p)) {
                return role.cast(p);
            }
        }
        return policy(null, role, 0, "eviction");
    }

    private static long orZero(Long v) {
        return v == null ? 0 : v;
    }
}
