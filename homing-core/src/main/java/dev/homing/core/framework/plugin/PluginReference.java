package dev.homing.core.framework.plugin;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A plugin named in another plugin's parameters. Plugins are created in configuration order, so the named one may not
 * exist yet when the naming one is created (llm-d's {@code pd-epp-config.yaml} declares its decider after the
 * handler). It is resolved at once when it already exists, when the configuration hands over every plugin
 * ({@link #resolve(Map)}), or else at first use; a name of the wrong kind fails at the earliest of these.
 */
public final class PluginReference<T extends Plugin> {

    private final String parameter;
    private final String name;
    private final Class<T> kind;
    private final String kindDescription;
    private final Function<String, Optional<Plugin>> lookup;
    private volatile T resolved;

    /**
     * @param parameter       the parameter that names the plugin, for messages ({@code deciders.prefill})
     * @param kindDescription what the plugin must be, for messages ({@code a P/D decider (prefix-based-pd-decider, ...)})
     */
    public PluginReference(String parameter, String name, Class<T> kind, String kindDescription, PluginContext ctx) {
        this.parameter = Objects.requireNonNull(parameter, "parameter");
        this.name = Objects.requireNonNull(name, "name");
        this.kind = Objects.requireNonNull(kind, "kind");
        this.kindDescription = Objects.requireNonNull(kindDescription, "kindDescription");
        this.lookup = ctx::plugin;
        ctx.plugin(name).ifPresent(p -> resolved = cast(p));
    }

    public String name() {
        return name;
    }

    /** The plugin, resolving it now if nothing has yet. */
    public T get() {
        T p = resolved;
        if (p == null) {
            p = cast(lookup.apply(name).orElseThrow(() -> new PluginConfigException("parameter '" + parameter
                    + "' names plugin '" + name + "', which is not declared; declare " + kindDescription
                    + " named '" + name + "'")));
            resolved = p;
        }
        return p;
    }

    /** Resolves against every plugin of the configuration, listing the names of the right kind if it fails. */
    public void resolve(Map<String, ? extends Plugin> plugins) {
        Plugin p = plugins.get(name);
        if (p == null) {
            TreeSet<String> choices = new TreeSet<>();
            plugins.forEach((n, candidate) -> {
                if (kind.isInstance(candidate)) {
                    choices.add(n);
                }
            });
            throw new PluginConfigException("parameter '" + parameter + "' names plugin '" + name
                    + "', which is not declared; " + (choices.isEmpty()
                    ? "declare " + kindDescription
                    : "declared plugins of that kind: " + String.join(", ", choices)));
        }
        resolved = cast(p);
    }

    private T cast(Plugin p) {
        if (!kind.isInstance(p)) {
            throw new PluginConfigException("parameter '" + parameter + "' names plugin '" + name + "' of type '"
                    + p.type() + "', which is not " + kindDescription);
        }
        return kind.cast(p);
    }
}
