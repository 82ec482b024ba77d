package dev.homing.core.framework.plugin;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A plugin type as a configuration names it: llm-d's type name and the factory that makes one from its parameters,
 * plus what llm-d attaches to the type: older names it still answers to, the companion it implies ({@link Pairing}),
 * and the role it fills when a configuration leaves that role empty. Each plugin class declares its own beside its
 * constructor, so everything about a type is read in one file; {@code plugins.BuiltIns} lists them.
 */
public final class PluginType {

    private final String name;
    private final PluginFactory factory;
    private final Map<String, PluginFactory> aliases;
    private final Pairing pairing;
    private final Class<? extends Plugin> defaultFor;

    private PluginType(String name, PluginFactory factory, Map<String, PluginFactory> aliases, Pairing pairing,
                       Class<? extends Plugin> defaultFor) {
        this.name = Objects.requireNonNull(name, "name");
        this.factory = Objects.requireNonNull(factory, "factory");
        this.aliases = Collections.unmodifiableMap(aliases);
        this.pairing = pairing;
        this.defaultFor = defaultFor;
    }

    public static PluginType of(String name, PluginFactory factory) {
        return new PluginType(name, factory, new LinkedHashMap<>(), null, null);
    }

    /** An older name that makes the same plugin; an unnamed instance is named after the alias it was written as. */
    public PluginType alias(String oldName) {
        return alias(oldName, factory);
    }

    /** An older name whose parameters read differently, with a factory of its own. */
    public PluginType alias(String oldName, PluginFactory aliasFactory) {
        if (oldName.equals(name)) {
            throw new IllegalArgumentException("alias '" + oldName + "' is the type's own name");
        }
        Map<String, PluginFactory> more = new LinkedHashMap<>(aliases);
        if (more.putIfAbsent(oldName, Objects.requireNonNull(aliasFactory)) != null) {
            throw new IllegalArgumentException("alias named twice: " + oldName);
        }
        return new PluginType(name, factory, more, pairing, defaultFor);
    }

    /** The companion a plugin of this type needs, which a configuration may leave out. */
    public PluginType pairedBy(Pairing companion) {
        return new PluginType(name, factory, new LinkedHashMap<>(aliases), Objects.requireNonNull(companion),
                defaultFor);
    }

    /**
     * This type fills {@code role} when a configuration names no plugin for it: llm-d's max-score picker for a profile
     * without a picker, its single-profile handler, its utilization detector.
     */
    public PluginType defaultFor(Class<? extends Plugin> role) {
        return new PluginType(name, factory, new LinkedHashMap<>(aliases), pairing, Objects.requireNonNull(role));
    }

    public String name() {
        return name;
    }

    public PluginFactory factory() {
        return factory;
    }

    /** Older names, each with the factory it makes its plugin with. */
    public Map<String, PluginFactory> aliases() {
        return aliases;
    }

    public Optional<Pairing> pairing() {
        return Optional.ofNullable(pairing);
    }

    /** The role this type fills by default, if any. */
    public Optional<Class<? extends Plugin>> defaultRole() {
        return Optional.ofNullable(defaultFor);
    }

    @Override
    public String toString() {
        return name;
    }
}
