package dev.homing.core.plugin;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Plugin factories by llm-d type name: what a configuration's {@code type:} may say. */
public final class PluginRegistry {

    private final Map<String, PluginFactory> factories = new TreeMap<>();

    /** Every plugin type Homing knows, under llm-d's names. */
    public static PluginRegistry builtIn() {
        PluginRegistry r = new PluginRegistry();
        BuiltInPlugins.registerAll(r);
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
     * Creates a plugin, refusing unknown types and parameters the factory did not read. An unnamed plugin is named
     * after the type the configuration wrote (an alias's instance after the alias), which is how a configuration
     * refers to it.
     *
     * @throws PluginConfigException with a message that lists the known choices
     */
    public Plugin create(String type, String name, Parameters parameters, PluginContext context) {
        PluginFactory f = factories.get(type);
        if (f == null) {
            throw new PluginConfigException("unknown plugin type '" + type + "'; known types: " + String.join(", ", types()));
        }
        Plugin plugin = f.create(name == null || name.isBlank() ? type : name, parameters, context);
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
