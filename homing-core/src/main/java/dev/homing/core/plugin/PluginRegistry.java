package dev.homing.core.plugin;

import dev.homing.core.plugins.picker.MaxScorePicker;
import dev.homing.core.plugins.prefix.ApproxPrefixCacheProducer;
import dev.homing.core.plugins.prefix.PrefixCacheScorer;
import dev.homing.core.plugins.profile.SingleProfileHandler;
import dev.homing.core.plugins.scorer.ActiveRequestScorer;
import dev.homing.core.plugins.scorer.KvCacheUtilizationScorer;
import dev.homing.core.plugins.scorer.NoHitLruScorer;
import dev.homing.core.plugins.scorer.QueueScorer;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Plugin factories by llm-d type name: what a configuration's {@code type:} may say. */
public final class PluginRegistry {

    private final Map<String, PluginFactory> factories = new TreeMap<>();

    public static PluginRegistry builtIn() {
        PluginRegistry r = new PluginRegistry();
        r.register(ApproxPrefixCacheProducer.TYPE, ApproxPrefixCacheProducer::create);
        r.register(PrefixCacheScorer.TYPE, (name, p, ctx) -> new PrefixCacheScorer(name));
        r.register(QueueScorer.TYPE, (name, p, ctx) -> new QueueScorer(name));
        r.register(KvCacheUtilizationScorer.TYPE, (name, p, ctx) -> new KvCacheUtilizationScorer(name));
        r.register(NoHitLruScorer.TYPE, (name, p, ctx) -> {
            p.string("prefixPluginType", null); // llm-d names the prefix plugin; Homing reads the shared PrefixMatch
            p.string("prefixPluginName", null);
            return new NoHitLruScorer(name, p.integer("lruSize", 1024));
        });
        r.register(ActiveRequestScorer.TYPE, (name, p, ctx) -> {
            p.duration("requestTimeout", null); // deprecated in llm-d: requests are released when they end
            return new ActiveRequestScorer(name, p.integer("idleThreshold", 0), p.number("maxBusyScore", 1.0));
        });
        r.register(MaxScorePicker.TYPE, (name, p, ctx) -> new MaxScorePicker(name, p.integer("maxNumOfEndpoints", 1)));
        r.register(SingleProfileHandler.TYPE, (name, p, ctx) -> new SingleProfileHandler(name));
        return r;
    }

    public void register(String type, PluginFactory factory) {
        if (factories.putIfAbsent(type, factory) != null) {
            throw new IllegalArgumentException("plugin type registered twice: " + type);
        }
    }

    public Set<String> types() {
        return Collections.unmodifiableSet(factories.keySet());
    }

    public boolean has(String type) {
        return factories.containsKey(type);
    }

    /**
     * Creates a plugin, refusing unknown types and parameters the factory did not read.
     *
     * @throws PluginConfigException with a message that lists the known choices
     */
    public Plugin create(String type, String name, Parameters parameters, PluginContext context) {
        PluginFactory f = factories.get(type);
        if (f == null) {
            throw new PluginConfigException("unknown plugin type '" + type + "'; known types: " + String.join(", ", types()));
        }
        Plugin plugin = f.create(name, parameters, context);
        Set<String> unknown = parameters.unknownKeys();
        if (!unknown.isEmpty()) {
            Set<String> known = new java.util.TreeSet<>(parameters.knownKeys());
            throw new PluginConfigException("unknown parameter" + (unknown.size() > 1 ? "s " : " ") + "'"
                    + String.join("', '", unknown) + "' for plugin type '" + type + "'; known parameters: "
                    + (known.isEmpty() ? "none" : String.join(", ", known)));
        }
        return plugin;
    }
}
