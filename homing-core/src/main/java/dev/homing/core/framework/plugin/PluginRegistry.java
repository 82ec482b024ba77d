package dev.homing.core.framework.plugin;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The plugin types a configuration's {@code type:} may name, by llm-d's type names and their aliases. Immutable:
 * made once from a list of {@link PluginType}s.
 */
public final class PluginRegistry {

    /** A name a configuration may write, and the type it makes. */
    private record Named(PluginType type, PluginFactory factory) {
    }

    private final Map<String, Named> byName = new TreeMap<>();
    private final Map<Class<? extends Plugin>, String> defaults = new HashMap<>();

    private PluginRegistry(Collection<PluginType> types) {
        for (PluginType t : types) {
            put(t.name(), new Named(t, t.factory()));
            t.aliases().forEach((alias, factory) -> put(alias, new Named(t, factory)));
            t.defaultRole().ifPresent(role -> {
                if (defaults.putIfAbsent(role, t.name()) != null) {
                    throw new IllegalArgumentException("two default " + role.getSimpleName() + "s: "
                            + defaults.get(role) + " and " + t.name());
                }
            });
        }
    }

    public static PluginRegistry of(Collection<PluginType> types) {
        return new PluginRegistry(types);
    }

    private void put(String name, Named named) {
        if (byName.putIfAbsent(name, named) != null) {
            throw new IllegalArgumentException("plugin type registered twice: " + name);
        }
    }

    /** Every name a configuration may write, aliases included. */
    public Set<String> types() {
        return Collections.unmodifiableSet(byName.keySet());
    }

    public boolean has(String type) {
        return byName.containsKey(type);
    }

    /** The companion a type implies, if it implies one. */
    public Optional<Pairing> pairing(String type) {
        Named n = byName.get(type);
        return n == null ? Optional.empty() : n.type().pairing();
    }

    /** The type that fills {@code role} when a configuration names none. */
    public Optional<String> defaultFor(Class<? extends Plugin> role) {
        return Optional.ofNullable(defaults.get(role));
    }

    /**
     * Creates a plugin, refusing unknown types. Parameters the factory did not read are not refused: they are left in
     * {@link Parameters#notices()} for the caller to report (llm-d ignores them). An unnamed plugin is named after the
     * type the configuration wrote (an alias's instance after the alias), which is how a configuration refers to it.
     *
     * @throws PluginConfigException for an unknown type, with the known ones, or for a parameter the factory refused
     */
    public Plugin create(String type, String name, Parameters parameters, PluginContext context) {
        Named n = byName.get(type);
        if (n == null) {
            throw new PluginConfigException("unknown plugin type '" + type + "'; known types: " + String.join(", ", types()));
        }
        return n.factory().create(name == null || name.isBlank() ? type : name, parameters, context);
    }
}
